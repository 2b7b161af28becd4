/**
 * The toasts of the seed's error catalogue, on Radix Toast with the seed's constants: one at a
 * time, shown 5000 ms, swiped right past 50 px to dismiss, viewport reached with F8.
 */
import { Toast } from 'radix-ui';
import { useApp } from '../app/context';
import { CloseIcon } from './Icons';

/** Seed section 9. */
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = ['F8'];

export function Toaster() {
  const toasts = useApp((store) => store.toasts);
  const dismiss = useApp((store) => store.dismissToast);
  return (
    <Toast.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
    >
      {toasts.map((toast) => (
        <Toast.Root
          key={toast.id}
          open={toast.open}
          onOpenChange={(open) => {
            if (!open) dismiss(toast.id);
          }}
          type={toast.variant === 'destructive' ? 'foreground' : 'background'}
          className={`toast ${toast.variant === 'destructive' ? 'toast-destructive' : ''}`}
        >
          <div className="toast-text">
            <Toast.Title className="toast-title">{toast.title}</Toast.Title>
            {toast.description && (
              <Toast.Description className="toast-description">
                {toast.description}
              </Toast.Description>
            )}
          </div>
          <Toast.Close className="toast-close" aria-label="Close">
            <CloseIcon />
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport className="toast-viewport" hotkey={TOAST_HOTKEY} />
    </Toast.Provider>
  );
}
