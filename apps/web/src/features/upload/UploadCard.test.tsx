import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../state/messages';
import type { AppState } from '../../state/types';
import { fakeConverter, mount, STATES } from '../../test/fixtures';
import { linesOf } from '../../test/reads';
import { ResultsCard } from '../results/ResultsCard';
import { UploadCard } from './UploadCard';

function fileInput(): HTMLInputElement {
  return screen.getByLabelText('Choose a ZIP file');
}

describe('UploadCard', () => {
  it('shows the empty drop zone with the seed texts and a Choose File button that opens the picker', async () => {
    mount(<UploadCard />);
    expect(linesOf(screen.getByTestId('dropzone'))).toEqual([
      'Drop your ZIP file here',
      'or click to browse files',
      'Choose File',
      'Accepts .zip files only (your Google Takeout archive)',
    ]);
    expect(fileInput().accept).toContain('.zip');
    // Choose File is the one upload button a screen reader finds: the input it opens is hidden.
    expect(fileInput().getAttribute('aria-hidden')).toBe('true');
    expect(
      screen.getAllByRole('button').filter((b) => /choose/i.test(b.textContent ?? '')),
    ).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Choose a ZIP file' })).toBeNull();
    let opened = 0;
    fileInput().addEventListener('click', () => (opened += 1));
    await userEvent.click(screen.getByRole('button', { name: 'Choose File' }));
    expect(opened).toBe(1);
  });

  it('refuses a file that is not a .zip and says which and why, under an Invalid File heading', async () => {
    const converter = fakeConverter();
    mount(<UploadCard />, { converter });
    await userEvent.upload(fileInput(), new File(['a,b'], 'Want to go.csv'), {
      applyAccept: false,
    });
    // One panel: the seed's message, then which file and why (no second red line in the zone).
    const alert = await screen.findByRole('alert');
    expect(linesOf(alert)).toEqual([
      'Invalid File',
      MESSAGES.notAZip,
      '“Want to go.csv” was not accepted: it is one file from your Takeout export. Choose the .zip file you downloaded from Google Takeout: it holds all your lists.',
      'Choose another file',
    ]);
    expect(within(screen.getByTestId('dropzone')).queryByText(/was not accepted/)).toBeNull();
    expect(converter.calls).toEqual([]);
  });

  it("says a .tgz is Takeout's other file type, and another file is not a .zip", async () => {
    const converter = fakeConverter();
    mount(<UploadCard />, { converter });
    const refused = async (name: string) => {
      await userEvent.upload(fileInput(), new File([new Uint8Array(64)], name), {
        applyAccept: false,
      });
      return screen.getByText(/was not accepted/).textContent;
    };
    const tgz =
      'it is a .tgz archive, and this page reads the .zip that Google Takeout makes by default. In Google Takeout, choose the file type “.zip” and export again.';
    expect(await refused('takeout-20261127T103000Z-001.tgz')).toBe(
      `“takeout-20261127T103000Z-001.tgz” was not accepted: ${tgz}`,
    );
    expect(await refused('takeout.TAR.GZ')).toBe(`“takeout.TAR.GZ” was not accepted: ${tgz}`);
    expect(await refused('Saved Places.json')).toMatch(/: it is one file from your Takeout export/);
    expect(await refused('map.kml')).toBe('“map.kml” was not accepted: it is not a .zip file.');
    // The seed's message stays the panel's, whatever the file; the last file's sentence follows it.
    expect(linesOf(screen.getByRole('alert'))).toEqual([
      'Invalid File',
      MESSAGES.notAZip,
      '“map.kml” was not accepted: it is not a .zip file.',
      'Choose another file',
    ]);
    expect(converter.calls).toEqual([]);
  });

  it('says a dropped folder is one (Safari unzips downloads) and how to make the .zip again', () => {
    const converter = fakeConverter();
    mount(<UploadCard />, { converter });
    const drop = (isDirectory: boolean) =>
      fireEvent.drop(screen.getByTestId('dropzone'), {
        dataTransfer: {
          files: [new File([], 'Takeout')],
          items: [{ webkitGetAsEntry: () => ({ isDirectory }) }],
        },
      });
    drop(true);
    expect(screen.getByText(/was not accepted/).textContent).toBe(
      '“Takeout” was not accepted: it is a folder. If your browser unzipped the download (Safari does), compress that folder into a .zip file (on a Mac: right-click it, then Compress) and choose that, or download the .zip again from Google Takeout.',
    );
    // A file of that name is no folder.
    drop(false);
    expect(screen.getByText(/was not accepted/).textContent).toBe(
      '“Takeout” was not accepted: it is not a .zip file.',
    );
    expect(converter.calls).toEqual([]);
  });

  it('takes a dropped archive and shows its name, size, type and list count', async () => {
    const { store } = mount(<UploadCard />);
    const zip = new File([new Uint8Array(1536)], 'takeout-2025.zip', { type: 'application/zip' });
    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [zip] } });
    await waitFor(() => expect(store.getState().state.status).toBe('selecting'));
    expect(linesOf(screen.getByText('takeout-2025.zip').parentElement!)).toEqual([
      'takeout-2025.zip',
      '1.5 KB',
      ' · ',
      'ZIP archive',
      'Found 3 saved place list(s)',
    ]);
  });

  it('takes none of several dropped files and says to drop one at a time (a Takeout in parts)', async () => {
    const converter = fakeConverter();
    const { store } = mount(<UploadCard />, { converter });
    const part = (n: number) =>
      new File([new Uint8Array(64)], `takeout-2025-00${n}.zip`, { type: 'application/zip' });
    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [part(1), part(2)] } });
    expect(screen.getByRole('alert').textContent).toBe(
      'You dropped 2 files: drop one ZIP file at a time. A Takeout export in several parts is several ZIP files; convert each on its own.',
    );
    expect(store.getState().state.status).toBe('empty');
    expect(converter.calls).toEqual([]);
    // A file refused through the picker since is what the zone speaks of then.
    await userEvent.upload(fileInput(), new File(['a,b'], 'Want to go.csv'), {
      applyAccept: false,
    });
    expect(screen.queryByText(/You dropped/)).toBeNull();
    expect(screen.getByText(/was not accepted/).textContent).toMatch(
      /^“Want to go\.csv” was not accepted: it is one file from your Takeout export\./,
    );
    // Several dropped again: that is the one message then, not beside the earlier refusal.
    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [part(1), part(2)] } });
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      expect.stringMatching(/^You dropped 2 files/),
    ]);
    // Choose File clears it too.
    await userEvent.click(screen.getByRole('button', { name: 'Choose File' }));
    expect(screen.queryByText(/You dropped/)).toBeNull();
    // One file then is taken.
    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [part(2)] } });
    await waitFor(() => expect(store.getState().state.status).toBe('selecting'));
    expect(screen.queryByText(/You dropped/)).toBeNull();
  });

  it("counts the archive's own lists, not the lists a retry adds", () => {
    const loaded = STATES.loaded as Extract<AppState, { status: 'loaded' }>;
    const retries = loaded.lists.map((list) => ({
      ...list,
      path: `retry:${list.path}`,
      origin: { kind: 'retry' as const, of: list.path },
    }));
    mount(<UploadCard />, { state: { ...loaded, lists: [...loaded.lists, ...retries] } });
    screen.getByText(`Found ${loaded.lists.length} saved place list(s)`);
  });

  it('shows a busy line while the archive is read', () => {
    mount(<UploadCard />, { state: STATES.inspecting });
    expect(screen.getByRole('status').textContent).toBe('Reading the archive…');
    expect(screen.queryByText(/saved place list/)).toBeNull();
  });

  it('Remove resets everything back to the drop zone', async () => {
    const converter = fakeConverter();
    const { store } = mount(<UploadCard />, { state: STATES.loaded, converter });
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(store.getState().state).toEqual({
        status: 'empty',
        error: null,
        refusedFileName: null,
      }),
    );
    screen.getByText('Drop your ZIP file here');
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(converter.calls).toEqual(['reset']);
    // The focus went with the Remove button: it is on what replaced it, not the page's top.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose File' }));
  });

  it('asks before Remove discards results not yet downloaded', async () => {
    const converter = fakeConverter();
    const { store } = mount(<UploadCard />, { state: STATES.complete, converter });
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(store.getState().state).toMatchObject({ status: 'complete', confirming: 'remove' });
    expect(converter.calls).toEqual([]);
  });

  it('after Remove files is confirmed on the results, the focus is on Choose File', async () => {
    mount(
      <>
        <UploadCard />
        <ResultsCard />
      </>,
      { state: STATES.complete, converter: fakeConverter() },
    );
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Remove files' }));
    const choose = await screen.findByRole('button', { name: 'Choose File' });
    await waitFor(() => expect(document.activeElement).toBe(choose));
  });

  it('disables Remove while a conversion runs', () => {
    mount(<UploadCard />, { state: STATES.converting });
    expect(screen.getByRole('button', { name: 'Remove' })).toHaveProperty('disabled', true);
  });

  it('offers to reopen the selection after the dialog was closed', async () => {
    const { store } = mount(<UploadCard />, { state: STATES.loaded });
    await userEvent.click(screen.getByRole('button', { name: 'Select Lists' }));
    expect(store.getState().state.status).toBe('selecting');
  });

  it('offers "Choose another file" after a refused archive, which opens the file picker', async () => {
    const converter = fakeConverter({
      inspect: async () => ({
        ok: false,
        error: { code: 'incomplete-zip', message: MESSAGES.incompleteZip },
      }),
    });
    mount(<UploadCard />, { converter });
    await userEvent.upload(fileInput(), new File([''], 'takeout.zip'));
    const alert = await screen.findByRole('alert');
    expect(linesOf(alert)).toEqual(['Invalid File', MESSAGES.incompleteZip, 'Choose another file']);
    let opened = 0;
    fileInput().addEventListener('click', () => (opened += 1));
    await userEvent.click(within(alert).getByRole('button', { name: 'Choose another file' }));
    expect(opened).toBe(1);
  });

  it.each([
    ['no CSV files', { ok: true as const, value: { lists: [] } }],
    [
      'a truncated ZIP',
      {
        ok: false as const,
        error: { code: 'incomplete-zip', message: MESSAGES.incompleteZip },
      },
    ],
  ])(
    'gives the focus back to Choose File when an archive with %s is refused',
    async (_, answer) => {
      let answerNow: () => void = () => undefined;
      const read = new Promise<void>((resolve) => (answerNow = resolve));
      const converter = fakeConverter({ inspect: () => read.then(() => answer) });
      const { store } = mount(<UploadCard />, { converter });
      await userEvent.upload(fileInput(), new File([''], 'takeout.zip'));
      // The spinner took the drop zone's place, and the focus went with it.
      expect(store.getState().state.status).toBe('inspecting');
      expect(document.activeElement).toBe(document.body);
      answerNow();
      await screen.findByRole('alert');
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose File' }));
    },
  );

  it('says what to do next after "No CSV files found in the zip file."', () => {
    mount(<UploadCard />, {
      state: { status: 'empty', error: MESSAGES.noCsv, refusedFileName: null },
    });
    expect(linesOf(screen.getByRole('alert'))).toEqual([
      'Invalid File',
      MESSAGES.noCsv,
      MESSAGES.noCsvNextStep,
      'Choose another file',
    ]);
  });

  it('says the lists are in another part when a part of an export in several held none', () => {
    mount(<UploadCard />, {
      state: { status: 'empty', error: MESSAGES.noCsv, refusedFileName: null, part: 2 },
    });
    expect(linesOf(screen.getByRole('alert'))).toEqual([
      'Invalid File',
      MESSAGES.noCsv,
      'This is part 2 of an export in several parts: choose the part that holds the "Saved" folder.',
      'Choose another file',
    ]);
  });

  it('offers no other file while one is kept (a payment error after the lists were read)', () => {
    mount(<UploadCard />, {
      state: { ...STATES.loaded, error: MESSAGES.intentFailed } as typeof STATES.loaded,
    });
    expect(linesOf(screen.getByRole('alert'))).toEqual(['Payment Issue', MESSAGES.intentFailed]);
  });

  it.each([
    [MESSAGES.intentFailed, 'Payment Issue'],
    [MESSAGES.noCsv, 'Invalid File'],
    ['Out of memory', 'Error'],
  ])('heads the error panel for "%s" with %s', (message, heading) => {
    mount(<UploadCard />, { state: { ...STATES.loaded, error: message } as typeof STATES.loaded });
    expect(linesOf(screen.getByRole('alert')).slice(0, 2)).toEqual([heading, message]);
  });
});
