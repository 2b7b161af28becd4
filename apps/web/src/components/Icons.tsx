/** Small inline icons (no icon font, no extra request). Decorative: hidden from assistive tech. */
import type { ReactNode, SVGProps } from 'react';

/** An icon component: `shape` drawn with a round 2 px stroke on a 24 × 24 grid, 1em square. */
function icon(shape: ReactNode) {
  return function Icon(props: SVGProps<SVGSVGElement>) {
    return (
      <svg
        viewBox="0 0 24 24"
        width="1em"
        height="1em"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        {...props}
      >
        {shape}
      </svg>
    );
  };
}

export const PinIcon = icon(
  <>
    <path d="M12 22s7-6.2 7-12a7 7 0 0 0-14 0c0 5.8 7 12 7 12Z" />
    <circle cx="12" cy="10" r="2.5" />
  </>,
);

export const UploadIcon = icon(
  <path d="M12 15V4M7 9l5-5 5 5M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />,
);

export const ArchiveIcon = icon(
  <>
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8Z" />
    <path d="M14 3v5h5M11 8h1M11 11h1M11 14h1" />
  </>,
);

export const CheckIcon = icon(<path d="M5 12.5 10 17.5 19 7" />);

export const AlertIcon = icon(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7.5v5M12 16.2v.3" />
  </>,
);

export const LockIcon = icon(
  <>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
  </>,
);

export const DownloadIcon = icon(<path d="M12 4v11M7 10l5 5 5-5M5 20h14" />);

export const CloseIcon = icon(<path d="M6 6l12 12M18 6 6 18" />);

/** A desktop computer, for the note that My Maps imports only there. */
export const ComputerIcon = icon(
  <>
    <rect x="3" y="4" width="18" height="12" rx="2" />
    <path d="M8 20h8M12 16v4" />
  </>,
);

/** A folder, beside the folder of a list whose name repeats. */
export const FolderIcon = icon(
  <path d="M3 6a1 1 0 0 1 1-1h5l2 2h9a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1Z" />,
);
