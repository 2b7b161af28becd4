import type { Ref } from 'react';

/** What the picker offers; the machine still checks the name, since drops bypass this. */
const ACCEPT = '.zip,application/zip,application/x-zip-compressed';

interface ZipFileInputProps {
  /** The input itself, so the card's buttons (Choose File, Choose another file) can open it. */
  ref: Ref<HTMLInputElement>;
  onFile: (file: File) => void;
}

/**
 * The hidden file input behind every "choose a file" button of the upload card. It is cleared
 * after each pick, so choosing the same file again (after downloading it anew) is seen.
 */
export function ZipFileInput({ ref, onFile }: ZipFileInputProps) {
  return (
    <input
      ref={ref}
      type="file"
      accept={ACCEPT}
      className="visually-hidden"
      tabIndex={-1}
      // Choose File opens it; to a screen reader it would be a second, invisible upload button.
      aria-hidden="true"
      aria-label="Choose a ZIP file"
      onChange={(event) => {
        const file = event.target.files?.[0];
        event.target.value = '';
        if (file) onFile(file);
      }}
    />
  );
}
