import { Tooltip } from 'radix-ui';
import { useId } from 'react';
import { useSend } from '../../app/context';
import { DownloadIcon } from '../../components/Icons';
import type { FileResult } from '../../state/types';
import type { OutputFormat } from '../../worker/types';
import { formatCount } from '../../lib/format';
import { formatName } from './DownloadBar';
import { FileNameText, splitFileName } from './FileNameText';
import { UnplacedReasons } from './UnplacedReasons';

/** Google My Maps imports at most this many places into one layer (product.md). */
export const MY_MAPS_LAYER_LIMIT = 2000;

/**
 * One chosen list in the results: its skipped panel, its "empty list" panel, or its name, its
 * downloads (each click is remembered) and its counts (a list with no place placed is named as a
 * list, with no map file and no file name).
 */
export function FileResultPanel({
  result,
  format,
  paid,
}: {
  result: FileResult;
  format: OutputFormat;
  /** The run had a card payment (what a used-up allowance was differs for free runs). */
  paid: boolean;
}) {
  const send = useSend();
  // Each list's panel is named by its heading, so a screen reader lists the panels by list.
  const titleId = useId();
  if (result.skippedReason !== null) {
    return (
      <article className="file-result is-skipped" aria-labelledby={titleId}>
        <h3 className="file-result-name" id={titleId}>
          {result.fileName}
        </h3>
        <p className="skipped-title">File skipped - validation failed</p>
        <p className="skipped-reason">
          <strong>Reason:</strong> {result.skippedReason}
        </p>
      </article>
    );
  }

  if (result.empty) {
    return (
      <article className="file-result is-empty" aria-labelledby={titleId}>
        <div className="file-result-head">
          <h3 className="file-result-name" id={titleId}>
            {result.outputName}
          </h3>
          <p className="file-result-converted">Empty list</p>
        </div>
        <p className="no-map-note">
          This list holds no place, so there is nothing to convert and no file for it.
        </p>
      </article>
    );
  }

  const downloaded = (url: string) => () => send({ type: 'fileDownloaded', url });
  const { counts, files, failed } = result;
  const parts = files.length;
  const shown = files[0]?.format ?? format;
  const name = formatName(shown);
  // A list in one file is titled by the name that file gets (same-named lists are told apart by
  // folder: "Want to go (Old).kml"); a list in parts, or without a map file, by its name, never
  // as a file that does not exist.
  const title = parts === 1 ? files[0]!.fileName : result.outputName;
  // A name made safe for files ("Trip: Paris" → "Trip_ Paris.kml") no longer says which list it
  // is: the list's name says it (not for a name the file keeps, nor one told apart by folder).
  const stem = parts === 1 ? splitFileName(title).stem : null;
  const renamed = stem !== null && stem !== result.name && stem !== result.outputName;
  return (
    <article
      className={parts === 0 ? 'file-result is-unplaced' : 'file-result'}
      aria-labelledby={titleId}
    >
      <div className="file-result-head">
        <h3 className="file-result-name" id={titleId}>
          {parts === 1 ? <FileNameText fileName={title} /> : <bdi>{title}</bdi>}
        </h3>
        <p className="file-result-converted">{`${formatCount(counts.converted)} of ${formatCount(counts.total)} places converted`}</p>
      </div>
      {renamed && (
        <p className="file-result-list">
          List: <bdi>{result.name}</bdi>
        </p>
      )}
      {parts === 0 && (
        <p className="no-map-note">
          No place in this list got coordinates, so there is no map file for it. The failed-places
          CSV lists them.
        </p>
      )}
      {parts > 1 && (
        <p className="split-note">
          {`Split into ${parts} files, because Google My Maps imports at most ${formatCount(MY_MAPS_LAYER_LIMIT)} places per layer. Import each part as its own layer.`}
        </p>
      )}
      <div className="downloads">
        {files.map((file) => (
          <a
            key={file.fileName}
            className="button primary"
            href={file.url}
            download={file.fileName}
            onClick={downloaded(file.url)}
          >
            <DownloadIcon />
            {parts > 1
              ? `Download ${name} (part ${file.part} of ${file.parts})`
              : `Download ${name}`}
            <span className="visually-hidden">{` — ${result.outputName}`}</span>
          </a>
        ))}
        {failed && (
          <Tooltip.Root>
            <Tooltip.Trigger asChild>
              <a
                className="button"
                href={failed.url}
                download={failed.fileName}
                onClick={downloaded(failed.url)}
              >
                <DownloadIcon />
                {`Download Failed (${formatCount(failed.count)})`}
                <span className="visually-hidden">{` — ${result.outputName}`}</span>
              </a>
            </Tooltip.Trigger>
            <Tooltip.Portal>
              <Tooltip.Content className="tooltip" sideOffset={6}>
                A CSV of the places that got no coordinates, to check or retry later.
                <Tooltip.Arrow className="tooltip-arrow" />
              </Tooltip.Content>
            </Tooltip.Portal>
          </Tooltip.Root>
        )}
      </div>
      <UnplacedReasons unplaced={result.unplaced} paid={paid} />
      <dl className="counts">
        <div>
          <dt>Total</dt>
          <dd>{formatCount(counts.total)}</dd>
        </div>
        <div>
          <dt>Converted</dt>
          <dd>{formatCount(counts.converted)}</dd>
        </div>
        <div>
          <dt>Skipped</dt>
          <dd>{formatCount(counts.skipped)}</dd>
        </div>
      </dl>
    </article>
  );
}
