/** The seed's submit button: 'Authorize Payment & Convert', busy 'Authorizing Payment...'. */
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
  return (
    <button
      type={type}
      className="button primary wide"
      disabled={busy || disabled}
      aria-busy={busy}
      onClick={onClick}
    >
      {busy ? 'Authorizing Payment...' : 'Authorize Payment & Convert'}
    </button>
  );
}
