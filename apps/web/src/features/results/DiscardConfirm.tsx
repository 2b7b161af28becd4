import { chargeCents, isUnderMinimum } from '@placeport/contract';
import { AlertDialog } from 'radix-ui';
import { useLayoutEffect, useRef } from 'react';
import { useEffects, useSend } from '../../app/context';
import { undownloadedMaps } from '../../state/machine';
import type { StateIn } from '../../state/types';

type Complete = StateIn<'complete'>;

/** True when this run was (or is being) charged: making its files again would be paid again. */
export function wasPaid(state: Complete): boolean {
  if (state.authorization.kind === 'free') return false;
  if (state.capture.kind === 'settled') return state.capture.amountCapturedCents > 0;
  return !isUnderMinimum(chargeCents(state.totals.converted));
}

/** "Lisbon.kml", "Lisbon.kml and Porto.kml", "Lisbon.kml, Porto.kml and 3 more files". */
function fileNames(names: readonly string[]): string {
  const shown = names.slice(0, 2);
  const more = names.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more ${more === 1 ? 'file' : 'files'}`;
  return shown.join(' and ');
}

/**
 * What the question says is lost: the map files not downloaded, by name, and, only when this run
 * was charged, that making them again is paid again.
 */
export function discardText(state: Complete, action: 'remove' | 'leave'): string {
  const names = undownloadedMaps(state).map((file) => file.fileName);
  const again = wasPaid(state) ? 'converting (and paying) again' : 'converting again';
  if (names.length === 1) {
    return `${names[0]} has not been downloaded. Files are not stored anywhere: once you ${action === 'remove' ? 'remove it' : 'leave these results'}, getting it again means ${again}. Download it first to keep it.`;
  }
  return `${fileNames(names)} have not been downloaded. Files are not stored anywhere: once you ${action === 'remove' ? 'remove them' : 'leave these results'}, getting them again means ${again}. Use "Download all" to keep them all in one ZIP.`;
}

/**
 * Asks before Remove, "Convert more lists" or "Retry failed places" discards map files that were
 * not downloaded: they are made in this tab and stored nowhere, so they cannot be had again
 * without converting again. It names them, and speaks of paying only when the run was charged.
 * Kept files take the focus back to the button that asked (the dialog has no Trigger of its own to
 * return it to, so it would fall to the page's top).
 */
export function DiscardConfirm({ state }: { state: Complete }) {
  const effects = useEffects();
  const send = useSend();
  const action = state.confirming;
  const opener = useRef<HTMLElement | null>(null);
  // Before the dialog moves the focus into itself (its focus scope does so in a passive effect).
  useLayoutEffect(() => {
    if (action !== null && document.activeElement instanceof HTMLElement) {
      opener.current = document.activeElement;
    }
  }, [action]);
  return (
    <AlertDialog.Root
      open={action !== null}
      onOpenChange={(open) => {
        if (!open) send({ type: 'discardCancelled' });
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-overlay" />
        <AlertDialog.Content
          className="dialog-content confirm-dialog"
          onCloseAutoFocus={(event) => {
            const back = opener.current;
            opener.current = null;
            if (back?.isConnected) {
              event.preventDefault();
              back.focus();
            }
          }}
        >
          <AlertDialog.Title className="dialog-title">
            {action === 'remove' ? 'Remove files not downloaded?' : 'Leave files not downloaded?'}
          </AlertDialog.Title>
          <AlertDialog.Description className="dialog-description">
            {action !== null && discardText(state, action === 'remove' ? 'remove' : 'leave')}
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
