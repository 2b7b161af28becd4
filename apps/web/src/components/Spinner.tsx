/** A busy indicator with a text for screen readers (and, when `visibleLabel`, for everyone). */
export function Spinner({
  label,
  visibleLabel = false,
}: {
  label: string;
  visibleLabel?: boolean;
}) {
  return (
    <span className="spinner-wrap" role="status">
      <span className="spinner" aria-hidden="true" />
      <span className={visibleLabel ? 'spinner-label' : 'visually-hidden'}>{label}</span>
    </span>
  );
}
