import { type DragEvent, type Ref, useEffect, useState } from 'react';
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

interface DropZoneProps {
  onFile: (file: File) => void;
  /** Opens the file picker (the card's {@link ZipFileInput}). */
  onBrowse: () => void;
  /** The last refused file, named so the visitor sees which one and why. */
  refusedFileName: string | null;
  /** The Choose File button, for the card to give it the focus. */
  chooseRef?: Ref<HTMLButtonElement>;
}

/**
 * The empty upload zone: drop a file, or click anywhere (or the Choose File button, which is
 * the keyboard's way in) to open the picker.
 */
export function DropZone({ onFile, onBrowse, refusedFileName, chooseRef }: DropZoneProps) {
  const [dragging, setDragging] = useState(false);
  /** How many files the last drop held, when it held more than one (none of them is taken). */
  const [dropped, setDropped] = useState(0);
  /** The name of the folder the last drop held (the picker chooses files only), if it was one. */
  const [folder, setFolder] = useState<string | null>(null);
  // A file refused since (chosen with the picker) is what the zone is about now.
  useEffect(() => setDropped(0), [refusedFileName]);
  /** Opens the picker: the drop's sentence is about a choice no longer being made. */
  const browse = () => {
    setDropped(0);
    setFolder(null);
    onBrowse();
  };

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    const { files } = event.dataTransfer;
    // Taking the first of several would silently leave the others out (a Takeout export in parts).
    setDropped(files.length > 1 ? files.length : 0);
    // A folder comes as a File named after it; only its entry says it is a folder.
    const entry = event.dataTransfer.items?.[0]?.webkitGetAsEntry?.();
    setFolder(files.length === 1 && entry?.isDirectory ? (files[0]?.name ?? null) : null);
    const file = files[0];
    if (file && files.length === 1) onFile(file);
  }

  return (
    <div
      className={`dropzone${dragging ? ' is-dragging' : ''}`}
      data-testid="dropzone"
      onClick={browse}
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
          browse();
        }}
      >
        Choose File
      </button>
      <p className="dropzone-accept">Accepts .zip files only (your Google Takeout archive)</p>
      {dropped > 1 && (
        <p className="dropzone-refused" role="alert">
          You dropped {dropped} files: drop one ZIP file at a time. A Takeout export in several
          parts is several ZIP files; convert each on its own.
        </p>
      )}
      {dropped === 0 && refusedFileName !== null && (
        <p className="dropzone-refused">
          “{refusedFileName}” was not accepted:{' '}
          {refusalReason(refusedFileName, refusedFileName === folder)}
        </p>
      )}
    </div>
  );
}
