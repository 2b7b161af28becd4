import { FORMAT_INFO } from '@placeport/converter';
import { OUTPUT_FORMATS } from '@placeport/contract';
import { useEffect, useId, useRef } from 'react';
import { useEffects, useSend } from '../../app/context';
import { DownloadIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import type { StateIn } from '../../state/types';
import type { OutputFormat } from '../../worker/types';

/** The short name of a format on buttons: "KML", "GPX", "GeoJSON". */
export function formatName(format: OutputFormat): string {
  return FORMAT_INFO[format].name;
}

/**
 * Above the lists on the results: the file format every download uses (the worker writes the run's
 * files again in the format chosen), and "Download all", one ZIP of every file of the run.
 */
export function DownloadBar({ state }: { state: StateIn<'complete'> }) {
  const effects = useEffects();
  const send = useSend();
  const selectId = useId();
  const { format, formatPending, zip } = state;
  const shown = formatPending ?? format;
  const hasFiles = state.results.some((result) => result.files.length > 0 || result.failed);
  // Without a map file (nothing placed), there is no format to choose.
  const hasMaps = state.results.some((result) => result.files.length > 0);
  const zipReady = zip.kind === 'ready' && zip.format === format && formatPending === null;
  const busy = zip.kind === 'building' || formatPending !== null;
  /** The focus is on "Download all" while it is a button (the ZIP not written yet). */
  const zipButtonFocused = useRef(false);
  const zipLink = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    // The button the focus was on gave way to the ZIP's link, and the focus fell to the page's
    // top: it goes on to the link, where the keyboard was.
    if (!zipReady || !zipButtonFocused.current) return;
    zipButtonFocused.current = false;
    const active = document.activeElement;
    if (active === null || active === document.body) zipLink.current?.focus();
  }, [zipReady]);

  return (
    <div className="download-bar">
      {hasMaps && (
        <div className="format-choice">
          <label htmlFor={selectId}>File format</label>
          {/* Never disabled, which would drop the focus: the arrow keys step on through the
              formats while the files are written, and the last one chosen is written. */}
          <select
            id={selectId}
            value={shown}
            aria-busy={formatPending !== null || undefined}
            onChange={(event) => void effects.chooseFormat(event.target.value as OutputFormat)}
          >
            {OUTPUT_FORMATS.map((option) => (
              <option key={option} value={option}>
                {FORMAT_INFO[option].label}
              </option>
            ))}
          </select>
          {formatPending !== null && (
            <Spinner label={`Writing ${formatName(formatPending)} files…`} visibleLabel />
          )}
        </div>
      )}
      {hasFiles &&
        (zipReady ? (
          <a
            ref={zipLink}
            className="button primary"
            href={zip.url}
            download={zip.fileName}
            onClick={() => send({ type: 'fileDownloaded', url: zip.url })}
          >
            <DownloadIcon />
            {hasMaps ? `Download all (${formatName(format)}, ZIP)` : 'Download all (ZIP)'}
          </a>
        ) : (
          // While the ZIP or the files are written, the button keeps the focus: aria-disabled,
          // not disabled, and presses ignored.
          <button
            type="button"
            className="button primary"
            aria-disabled={busy || undefined}
            onFocus={() => (zipButtonFocused.current = true)}
            onBlur={() => (zipButtonFocused.current = false)}
            onClick={() => {
              if (!busy) void effects.downloadAll();
            }}
          >
            {zip.kind === 'building' ? (
              <Spinner label="Preparing ZIP…" visibleLabel />
            ) : (
              <>
                <DownloadIcon />
                {hasMaps ? `Download all (${formatName(shown)}, ZIP)` : 'Download all (ZIP)'}
              </>
            )}
          </button>
        ))}
      {zip.kind === 'failed' && (
        <p className="zip-error" role="alert">
          {zip.message}
        </p>
      )}
    </div>
  );
}
