import { useEffect, useRef, useState } from 'react';
import { useApp, useEffects, useSend } from '../../app/context';
import { archiveListCount, canRemove } from '../../state/machine';
import { GUIDE_ID } from '../guide/HowToUse';
import { useGuideFirst } from '../guide/layout';
import { DropZone, refusalSentence } from './DropZone';
import { ErrorPanel } from './ErrorPanel';
import { FileSummary } from './FileSummary';
import { ZipFileInput } from './ZipFileInput';
import './upload.css';

/** The upload card: the drop zone, or the accepted file, and the error panel under it. */
export function UploadCard() {
  const state = useApp((store) => store.state);
  const effects = useEffects();
  const send = useSend();
  const guideFirst = useGuideFirst();
  const picker = useRef<HTMLInputElement>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);
  const hadFile = useRef(state.status !== 'empty');
  useEffect(() => {
    // The file and its buttons went away, the focus with them (to the page's top, or from a closed
    // dialog to nowhere): Remove took them, or the archive was refused once read (no CSV files, a
    // truncated ZIP), its spinner gone. The focus goes to what replaced them, Choose File (WCAG
    // 2.4.3); the error panel, an alert, is read out all the same.
    if (state.status === 'empty' && hadFile.current) {
      const active = document.activeElement;
      if (active === null || active === document.body) chooseButton.current?.focus();
    }
    hadFile.current = state.status !== 'empty';
  }, [state.status]);
  // A failed conversion's message is in its own card, beside what became of the payment.
  const error =
    state.status === 'empty' || state.status === 'loaded' || state.status === 'selecting'
      ? state.error
      : null;
  /** The name last given, when a drop said it was a folder (the picker chooses files only). */
  const [folder, setFolder] = useState<string | null>(null);
  /**
   * How many files the last drop held when it held several, none taken; 0 once a file is chosen
   * or the picker opened. While it is said, an earlier refusal's panel is not (one red message).
   */
  const [several, setSeveral] = useState(0);
  const chooseFile = (file: File, isFolder = false) => {
    setSeveral(0);
    setFolder(isFolder ? file.name : null);
    void effects.chooseFile(file);
  };
  const openPicker = () => {
    setSeveral(0);
    picker.current?.click();
  };

  return (
    <section className="card" aria-labelledby="upload-title">
      <h2 id="upload-title">Upload Your Takeout Archive</h2>
      {state.status === 'empty' ? (
        <>
          <DropZone
            onFile={chooseFile}
            onBrowse={openPicker}
            onSeveral={setSeveral}
            several={several}
            chooseRef={chooseButton}
          />
          <ZipFileInput ref={picker} onFile={chooseFile} />
        </>
      ) : (
        <FileSummary
          file={state.file}
          listCount={state.status === 'inspecting' ? null : archiveListCount(state.lists)}
          canRemove={canRemove(state)}
          onRemove={() => void effects.remove()}
          {...(state.status === 'loaded'
            ? { onSelectLists: () => send({ type: 'selectionOpened' }) }
            : {})}
        />
      )}
      {error !== null && several === 0 && (
        <ErrorPanel
          message={error}
          {...(state.status === 'empty'
            ? {
                part: state.part,
                refusal:
                  state.refusedFileName === null
                    ? undefined
                    : refusalSentence(state.refusedFileName, state.refusedFileName === folder),
                onChooseAnother: openPicker,
              }
            : {})}
        />
      )}
      {state.status === 'empty' && !guideFirst && (
        // On phones the guide follows this card: this points a first-time visitor down to it.
        <p className="upload-guide-link">
          No archive yet? See <a href={`#${GUIDE_ID}`}>How to Use This Converter</a> below.
        </p>
      )}
    </section>
  );
}
