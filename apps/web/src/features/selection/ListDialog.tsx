import { Dialog } from 'radix-ui';
import { useLayoutEffect, useRef } from 'react';
import { useApp, useSend } from '../../app/context';
import { PaymentView } from '../payment/PaymentView';
import { SELECT_LISTS_ID } from '../upload/FileSummary';
import { isFilledFilter } from './ListFilter';
import { SelectionView } from './SelectionView';

/**
 * The one dialog of the seed: the selection view, then the payment view. Escape and Cancel close
 * either view, as in the seed; a click outside closes only the selection, which keeps what was
 * chosen. The payment view is shorter than the selection, so the second click of a double click
 * on Proceed to Payment lands outside it: closing then would throw away the payment just prepared
 * (and a stray click, a card being typed in), so a click outside the payment view never closes it.
 */
export function ListDialog() {
  const state = useApp((store) => store.state);
  const send = useSend();
  const paying =
    state.status === 'awaitingIntent' ||
    state.status === 'paying' ||
    state.status === 'authorizing';
  const view = state.status === 'selecting' ? 'selection' : paying ? 'payment' : 'closed';
  const content = useRef<HTMLDivElement>(null);
  // One scrolling box holds both views: each opens at its top (its title and Back to Selection),
  // not where the other was scrolled to (at 200% zoom the payment view opened 60 px down).
  useLayoutEffect(() => {
    if (content.current) content.current.scrollTop = 0;
  }, [view]);

  return (
    <Dialog.Root
      open={view !== 'closed'}
      onOpenChange={(open) => {
        if (!open) send({ type: 'dialogDismissed' });
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          ref={content}
          className="dialog-content"
          data-view={view}
          onCloseAutoFocus={(event) => {
            // Select Lists opens the dialog again, so the focus goes back to it (there is no
            // Trigger for Radix to return to). It is given here, once the focus trap has let go:
            // while the dialog itself held the focus (after its view changed), the trap took the
            // focus back from the button as it appeared, and lost it to the page's top. A card
            // that took the focus meanwhile (processing, after Authorize) keeps it.
            event.preventDefault();
            const active = document.activeElement;
            if (active === null || active === document.body) {
              document.getElementById(SELECT_LISTS_ID)?.focus();
            }
          }}
          onFocus={(event) => {
            // Radix moves the focus without scrolling (opening, and Tab wrapping from the last
            // control to the first): at 200% and 400% zoom the control it focused stayed out of
            // sight. The focused control is scrolled into sight, as little as it takes.
            if (event.target !== event.currentTarget) {
              event.target.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
            }
          }}
          onInteractOutside={(event) => {
            if (view === 'payment') event.preventDefault();
          }}
          onEscapeKeyDown={(event) => {
            // Escape in a filled filter box clears the filter; the dialog stays open.
            if (isFilledFilter(event.target)) event.preventDefault();
          }}
        >
          {state.status === 'selecting' && <SelectionView archive={state} error={state.error} />}
          {paying && <PaymentView state={state} />}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
