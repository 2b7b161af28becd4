import { type DragEvent, type Ref, useState } from 'react';
import { UploadIcon } from '../../components/Icons';

/**
 * The id of the Choose File button, the page's first step: what the focus goes to when a notice
 * above it is closed (see LastVisitCard).
 */
export const CHOOSE_FILE_ID = 'choose-file';

/**
 * Why a file that is not a .zip was refused, said for what it is: a `.tgz` is Takeout's other file
 * type (this page reads the .zip, the seed's only input), and a CSV or JSON file is one file of
 * the export, taken out of the archive that holds them all.
 */
export function refusalReason(fileName: string, isFolder = false): string {
  if (isFolder) {
    // Safari unzips a download by itself (and removes the .zip), leaving the Takeout folder.
    return 'it is a folder. If your browser unzipped the download (Safari does), compress that folder into a .zip file (on a Mac: right-click it, then Compress) and choose that, or download the .zip again from Google Takeout.';
  }
  if (/\.(?:tgz|tar\.gz)$/i.test(fileName)) {
    return 'it is a .tgz archive, and this page reads the .zip that Google Takeout makes by default. In Google Takeout, choose the file type “.zip” and export again.';
  }
  if (/\.(?:csv|json)$/i.test(fileName)) {
    return 'it is one file from your Takeout export. Choose the .zip file you downloaded from Google Takeout: it holds all your lists.';
  }
  return 'it is not a .zip file.';
}

/**
 * The sentence naming a refused file and why, shown in the error panel under the seed's message
 * (one red panel, not a second red line in the drop zone).
 */
export function refusalSentence(fileName: string, isFolder = false): string {
  return `“${fileName}” was not accepted: ${refusalReason(fileName, isFolder)}`;
}

interface DropZoneProps {
  /** A file chosen by dropping it; `isFolder` when the drop's entry says it was a folder. */
  onFile: (file: File, isFolder: boolean) => void;
  /** Opens the file picker (the card's {@link ZipFileInput}). */
  onBrowse: () => void;
  /** A drop held several files (none is taken): how many. */
  onSeveral: (count: number) => void;
  /** How many files the last drop held, when it held several and nothing was chosen since; or 0. */
  several: number;
  /** The Choose File button, for the card to give it the focus. */
  chooseRef?: Ref<HTMLButtonElement>;
}

/**
 * The empty upload zone: drop a file, or click anywhere (or the Choose File button, which is
 * the keyboard's way in) to open the picker.
 */
export function DropZone({ onFile, onSeveral, onBrowse, several, chooseRef }: DropZoneProps) {
  const [dragging, setDragging] = useState(false);

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    const { files } = event.dataTransfer;
    // Taking the first of several would silently leave the others out (a Takeout export in parts).
    if (files.length > 1) return onSeveral(files.length);
    // A folder comes as a File named after it; only its entry says it is a folder.
    const entry = event.dataTransfer.items?.[0]?.webkitGetAsEntry?.();
    const file = files[0];
    if (file) onFile(file, entry?.isDirectory === true);
  }

  return (
    <div
      className={`dropzone${dragging ? ' is-dragging' : ''}`}
      data-testid="dropzone"
      onClick={onBrowse}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <UploadIcon className="dropzone-icon" />
      <p className="dropzone-title">Drop your ZIP file here</p>
      <p className="dropzone-hint">or click to browse files</p>
      <button
        ref={chooseRef}
        id={CHOOSE_FILE_ID}
        type="button"
        className="button primary"
        onClick={(event) => {
          event.stopPropagation();
          onBrowse();
        }}
      >
        Choose File
      </button>
      <p className="dropzone-accept">Accepts .zip files only (your Google Takeout archive)</p>
      {several > 1 && (
        <p className="dropzone-refused" role="alert">
          You dropped {several} files: drop one ZIP file at a time. A Takeout export in several
          parts is several ZIP files; convert each on its own.
        </p>
      )}
    </div>
  );
}
