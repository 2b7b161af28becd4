import { type DragEvent, type Ref, useState } from 'react';
import { UploadIcon } from '../../components/Icons';

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

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
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
      {refusedFileName !== null && (
        <p className="dropzone-refused">
          “{refusedFileName}” was not accepted: it is not a .zip file.
        </p>
      )}
    </div>
  );
}
