import type { MouseEvent } from 'react';
import { useApp } from '../../app/context';

/** The id of the payment view's error, which the button it concerns is described by. */
export const PAYMENT_ERROR_ID = 'payment-error';

/**
 * The seed's submit button: 'Authorize Payment & Convert', busy 'Authorizing Payment...'. While busy
 * it is only aria-disabled and ignores presses: a disabled button would drop the focus to the
 * page's top, and the person would find nothing focused when the bank answers (a declined card).
 * When the last attempt failed, the payment view's error describes it.
 */
export function AuthorizeButton({
  busy,
  disabled = false,
  type = 'button',
  onClick,
}: {
  busy: boolean;
  disabled?: boolean;
  type?: 'button' | 'submit';
  onClick?: () => void;
}) {
  const described = useFailedAttempt();
  return (
    <button
      type={type}
      className="button primary wide"
      disabled={disabled}
      aria-disabled={busy || undefined}
      aria-busy={busy}
      aria-describedby={described ? PAYMENT_ERROR_ID : undefined}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        // A press while busy neither submits the card form again nor authorizes twice.
        if (busy) event.preventDefault();
        else onClick?.();
      }}
    >
      {busy ? 'Authorizing Payment...' : 'Authorize Payment & Convert'}
    </button>
  );
}

/** Whether the payment view shows why the last authorization failed. */
export function useFailedAttempt(): boolean {
  return useApp((store) => store.state.status === 'paying' && store.state.error !== undefined);
}
