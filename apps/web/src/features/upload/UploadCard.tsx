import { useApp, useEffects, useSend } from '../../app/context';
import { canRemove, errorMessage } from '../../state/selectors';
import { DropZone } from './DropZone';
import { ErrorPanel } from './ErrorPanel';
import { FileSummary } from './FileSummary';

/** The upload card: the drop zone, or the accepted file, and the error panel under it. */
export function UploadCard() {
  const state = useApp((store) => store.state);
  const effects = useEffects();
  const send = useSend();
  const error = errorMessage(state);

  function body() {
    switch (state.status) {
      case 'empty':
        return (
          <DropZone
            onFile={(file) => void effects.chooseFile(file)}
            refusedFileName={state.refusedFileName}
          />
        );
      case 'inspecting':
        return (
          <FileSummary
            file={state.file}
            listCount={null}
            canRemove={canRemove(state)}
            onRemove={() => void effects.remove()}
          />
        );
      default:
        return (
          <FileSummary
            file={state.file}
            listCount={state.lists.length}
            canRemove={canRemove(state)}
            onRemove={() => void effects.remove()}
            {...(state.status === 'loaded'
              ? { onSelectLists: () => send({ type: 'selectionOpened' }) }
              : {})}
          />
        );
    }
  }

  return (
    <section className="card" aria-labelledby="upload-title">
      <h2 id="upload-title">Upload Your Takeout Archive</h2>
      {body()}
      {error !== null && <ErrorPanel message={error} />}
    </section>
  );
}
