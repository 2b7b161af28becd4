import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useApp } from '../../app/context';
import { fakeConverter, mount, STATES } from '../../test/fixtures';
import type { OutputFormat } from '../../worker/types';
import { DownloadBar } from './DownloadBar';

/** The bar as the results card shows it: for the store's state while it is complete. */
function Bar() {
  const state = useApp((store) => store.state);
  return state.status === 'complete' ? <DownloadBar state={state} /> : null;
}

describe('DownloadBar', () => {
  it('keeps the format select enabled and focused while files are written; the last choice shows', () => {
    const asked: OutputFormat[] = [];
    // The worker never answers: the files stay being written.
    const converter = fakeConverter({
      files: (format) => {
        asked.push(format);
        return new Promise(() => undefined);
      },
    });
    const { store } = mount(<Bar />, { state: STATES.complete, converter });
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'File format' });
    select.focus();
    fireEvent.change(select, { target: { value: 'kmz' } });
    // Not disabled, which would drop the focus to the page's top (in browsers; jsdom keeps it).
    expect([select.disabled, select.getAttribute('aria-busy'), select.value]).toEqual([
      false,
      'true',
      'kmz',
    ]);
    expect(document.activeElement).toBe(select);
    fireEvent.change(select, { target: { value: 'gpx' } });
    expect(select.value).toBe('gpx');
    expect(document.activeElement).toBe(select);
    expect(store.getState().state).toMatchObject({ format: 'kml', formatPending: 'gpx' });
    // The GPX files wait for the KMZ files the worker is writing.
    expect(asked).toEqual(['kmz']);
    expect(screen.getByRole('status').textContent).toBe('Writing GPX files…');
  });

  /** The worker has written the run's KML ZIP. */
  function zipWritten(store: ReturnType<typeof mount>['store']) {
    act(() =>
      store.getState().send({
        type: 'zipReady',
        format: 'kml',
        url: 'blob:zip',
        fileName: 'PlacePort KML.zip',
      }),
    );
  }

  it('keeps the focus on Download all while the ZIP is written, then gives it to the link', () => {
    const { store } = mount(<Bar />, { state: STATES.complete });
    const button = screen.getByRole<HTMLButtonElement>('button', {
      name: 'Download all (KML, ZIP)',
    });
    button.focus();
    act(() => store.getState().send({ type: 'zipRequested' }));
    const building = screen.getByRole<HTMLButtonElement>('button', { name: 'Preparing ZIP…' });
    expect([building, building.disabled, building.getAttribute('aria-disabled')]).toEqual([
      button,
      false,
      'true',
    ]);
    expect(document.activeElement).toBe(button);
    zipWritten(store);
    expect(document.activeElement).toBe(
      screen.getByRole('link', { name: 'Download all (KML, ZIP)' }),
    );
  });

  it('leaves the focus where the person took it while the ZIP was written', () => {
    const { store } = mount(<Bar />, { state: STATES.complete });
    screen.getByRole('button', { name: 'Download all (KML, ZIP)' }).focus();
    act(() => store.getState().send({ type: 'zipRequested' }));
    const select = screen.getByRole('combobox', { name: 'File format' });
    select.focus();
    zipWritten(store);
    expect(document.activeElement).toBe(select);
  });
});
