import { LockIcon } from '../../components/Icons';

/** The privacy line, worded as product.md requires: true about the one thing that leaves the page. */
export const PRIVACY_TEXT =
  'Your files are converted in your browser and are never stored. Place links without coordinates are sent to our server only to look up their coordinates, and are not stored either.';

export function PrivacyNote() {
  return (
    <p className="privacy">
      <LockIcon className="privacy-icon" />
      <span>{PRIVACY_TEXT}</span>
    </p>
  );
}
