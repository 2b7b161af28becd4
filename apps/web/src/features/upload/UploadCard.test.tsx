import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../state/messages';
import { fakeConverter, mount, STATES } from '../../test/fixtures';
import { UploadCard } from './UploadCard';

function fileInput(): HTMLInputElement {
  return screen.getByLabelText('Choose a ZIP file');
}

describe('UploadCard', () => {
  it('shows the empty drop zone with the seed texts and a Choose File button', () => {
    mount(<UploadCard />);
    expect(screen.getByText('Drop your ZIP file here')).toBeTruthy();
    expect(screen.getByText('or click to browse files')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose File' })).toBeTruthy();
    expect(fileInput().accept).toContain('.zip');
  });

  it('refuses a file that is not a .zip and says which and why, under an Invalid File heading', async () => {
    const converter = fakeConverter();
    mount(<UploadCard />, { converter });
    await userEvent.upload(fileInput(), new File(['a,b'], 'Want to go.csv'), {
      applyAccept: false,
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Invalid File')).toBeTruthy();
    expect(within(alert).getByText(MESSAGES.notZip)).toBeTruthy();
    expect(
      screen.getByText('“Want to go.csv” was not accepted: it is not a .zip file.'),
    ).toBeTruthy();
    expect(converter.calls).toEqual([]);
  });

  it('takes a dropped archive and shows its name, size, type and list count', async () => {
    const { store } = mount(<UploadCard />);
    const zip = new File([new Uint8Array(1536)], 'takeout-2025.zip', { type: 'application/zip' });
    fireEvent.drop(screen.getByTestId('dropzone'), { dataTransfer: { files: [zip] } });
    await waitFor(() => expect(store.getState().state.status).toBe('selecting'));
    expect(screen.getByText('takeout-2025.zip')).toBeTruthy();
    expect(screen.getByText('1.5 KB')).toBeTruthy();
    expect(screen.getByText('ZIP archive')).toBeTruthy();
    expect(screen.getByText('Found 3 saved place list(s)')).toBeTruthy();
  });

  it('shows a busy line while the archive is read', () => {
    mount(<UploadCard />, { state: STATES.inspecting });
    expect(screen.getByText('Reading the archive…')).toBeTruthy();
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
    expect(screen.getByText('Drop your ZIP file here')).toBeTruthy();
    expect(converter.calls).toEqual(['reset']);
  });

  it('asks before Remove discards results not yet downloaded', async () => {
    const converter = fakeConverter();
    const { store } = mount(<UploadCard />, { state: STATES.complete, converter });
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(store.getState().state).toMatchObject({ status: 'complete', confirming: 'remove' });
    expect(converter.calls).toEqual([]);
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
    expect(within(alert).getByText(MESSAGES.incompleteZip)).toBeTruthy();
    let opened = 0;
    fileInput().addEventListener('click', () => (opened += 1));
    await userEvent.click(within(alert).getByRole('button', { name: 'Choose another file' }));
    expect(opened).toBe(1);
  });

  it('says what to do next after "No CSV files found in the zip file."', () => {
    mount(<UploadCard />, {
      state: { status: 'empty', error: MESSAGES.noCsv, refusedFileName: null },
    });
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText(MESSAGES.noCsv)).toBeTruthy();
    expect(within(alert).getByText(MESSAGES.noCsvNextStep)).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Choose another file' })).toBeTruthy();
  });

  it('offers no other file while one is kept (a payment error after the lists were read)', () => {
    mount(<UploadCard />, {
      state: { ...STATES.loaded, error: MESSAGES.intentFailed } as typeof STATES.loaded,
    });
    const alert = screen.getByRole('alert');
    expect(within(alert).queryByRole('button')).toBeNull();
    expect(within(alert).queryByText(MESSAGES.noCsvNextStep)).toBeNull();
  });

  it.each([
    [MESSAGES.intentFailed, 'Payment Issue'],
    [MESSAGES.noCsv, 'Invalid File'],
    ['Out of memory', 'Error'],
  ])('heads the error panel for "%s" with %s', (message, heading) => {
    mount(<UploadCard />, { state: { ...STATES.loaded, error: message } as typeof STATES.loaded });
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText(heading)).toBeTruthy();
    expect(within(alert).getByText(message)).toBeTruthy();
  });
});
