import { AlertDialog } from 'radix-ui';
import { useEffects, useSend } from '../../app/context';
import type { AppState } from '../../state/types';

type Complete = Extract<AppState, { status: 'complete' }>;

/**
 * Asks before Remove or "Convert more lists" discards files that were not downloaded: they are
 * made in this tab and stored nowhere, so they cannot be had again without converting again.
 */
export function DiscardConfirm({ state }: { state: Complete }) {
  const effects = useEffects();
  const send = useSend();
  const action = state.confirming;
  return (
    <AlertDialog.Root
      open={action !== null}
      onOpenChange={(open) => {
        if (!open) send({ type: 'discardCancelled' });
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content className="dialog-content confirm-dialog">
          <AlertDialog.Title className="dialog-title">
            {action === 'remove' ? 'Remove files not downloaded?' : 'Leave files not downloaded?'}
          </AlertDialog.Title>
          <AlertDialog.Description className="dialog-description">
            Some files of this conversion have not been downloaded. They are not stored anywhere:
            once you {action === 'remove' ? 'remove them' : 'leave these results'}, getting them
            again means converting (and paying) again. Use &quot;Download all&quot; to keep them all
            in one ZIP.
          </AlertDialog.Description>
          <div className="dialog-footer">
            <AlertDialog.Cancel asChild>
              <button type="button" className="button primary">
                Keep my files
              </button>
            </AlertDialog.Cancel>
            <AlertDialog.Action asChild>
              <button
                type="button"
                className="button danger"
                onClick={() => {
                  if (action === 'remove') void effects.remove(true);
                  else if (action === 'retry') void effects.retryFailed(true);
                  else effects.convertMore(true);
                }}
              >
                {action === 'remove'
                  ? 'Remove files'
                  : action === 'retry'
                    ? 'Retry without them'
                    : 'Go back to the lists'}
              </button>
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
