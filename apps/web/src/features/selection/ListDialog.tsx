import { Dialog } from 'radix-ui';
import { useApp, useSend } from '../../app/context';
import { dialogView } from '../../state/selectors';
import { PaymentView } from '../payment/PaymentView';
import { isFilledFilter } from './ListFilter';
import { SelectionView } from './SelectionView';

/** The one dialog of the seed: the selection view, then the payment view. */
export function ListDialog() {
  const state = useApp((store) => store.state);
  const send = useSend();
  const view = dialogView(state);

  function content() {
    switch (state.status) {
      case 'selecting':
        return <SelectionView archive={state} error={state.error} />;
      case 'awaitingIntent':
      case 'paying':
      case 'authorizing':
        return <PaymentView state={state} />;
      default:
        return null;
    }
  }

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
          className="dialog-content"
          data-view={view}
          onCloseAutoFocus={(event) => event.preventDefault()}
          onEscapeKeyDown={(event) => {
            // Escape in a filled filter box clears the filter; the dialog stays open.
            if (isFilledFilter(event.target)) event.preventDefault();
          }}
        >
          {content()}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
