import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { TOAST_DURATION_MS } from '../components/Toaster';
import { PRIVACY_TEXT } from '../features/guide/PrivacyNote';
import { SUBTITLE } from '../features/header/Header';
import type { AppState } from '../state/types';
import { RESULT, STATES, testServices } from '../test/fixtures';
import { linesOf } from '../test/reads';
import { App, isConverterPath } from './App';

function mountApp(pathname: string, state?: AppState) {
  const services = testServices(state ? { state } : {});
  const view = render(<App services={services} pathname={pathname} />);
  return { ...services, unmount: view.unmount };
}

/** Asks the page whether it may be left, as the browser does; true when it asks to stay. */
function leavingIsQuestioned(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('routes', () => {
  it.each(['/', '/index.html'])('%s is the converter', (path) => {
    expect(isConverterPath(path)).toBe(true);
  });

  it.each(['/about', '/api', '/index', '/converter/'])('%s is not', (path) => {
    expect(isConverterPath(path)).toBe(false);
  });

  it('renders the 404 screen at any other path', () => {
    mountApp('/nowhere');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('404 Page Not Found');
    expect(screen.queryByText('Drop your ZIP file here')).toBeNull();
  });
});

describe('converter page', () => {
  it('shows the sections in the seed order with the config names', () => {
    mountApp('/');
    const headings = screen.getAllByRole('heading').map((h) => h.textContent);
    expect(headings).toEqual([
      'PlacePort',
      'How to Use This Converter',
      'Upload Your Takeout Archive',
    ]);
    expect(linesOf(screen.getByRole('banner'))).toEqual(['PlacePort', SUBTITLE]);
    screen.getByText(PRIVACY_TEXT);
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByRole('link', { name: 'feedback@example.com' }).getAttribute('href')).toBe(
      'mailto:feedback@example.com',
    );
  });

  it('keeps a file dropped outside the drop zone from replacing the page', () => {
    mountApp('/');
    const drop = new Event('drop', { cancelable: true }) as DragEvent;
    Object.defineProperty(drop, 'dataTransfer', { value: { types: ['Files'] } });
    window.dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(true);
  });

  it('asks before the tab is left during a conversion and until the results are downloaded', () => {
    const { store, unmount } = mountApp('/', STATES.converting);
    expect(leavingIsQuestioned()).toBe(true);
    act(() => {
      store.getState().send({
        type: 'conversionFinished',
        results: [RESULT],
        totals: { total: 40, converted: 37, skipped: 3 },
      });
    });
    expect(leavingIsQuestioned()).toBe(true);
    act(() => {
      screen.getByRole('link', { name: /^Download KML/ }).click();
    });
    expect(leavingIsQuestioned()).toBe(true);
    act(() => {
      screen.getByRole('link', { name: /^Download Failed/ }).click();
    });
    expect(leavingIsQuestioned()).toBe(false);
    unmount();
  });

  it('stops asking when the page goes away', () => {
    const { unmount } = mountApp('/', STATES.converting);
    expect(leavingIsQuestioned()).toBe(true);
    unmount();
    expect(leavingIsQuestioned()).toBe(false);
  });

  it('never asks on the 404 screen', () => {
    mountApp('/nowhere', STATES.converting);
    expect(leavingIsQuestioned()).toBe(false);
  });

  it('follows the config the server sends once it arrives', () => {
    const { store } = mountApp('/');
    act(() => {
      store.getState().configLoaded({
        productName: 'MapMover',
        contactEmail: 'help@mapmover.test',
        payments: 'demo',
        publishableKey: null,
      });
    });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('MapMover');
    expect(screen.getByRole('link', { name: 'help@mapmover.test' }).getAttribute('href')).toBe(
      'mailto:help@mapmover.test',
    );
  });

  it('shows a toast with its title and text, and closes it with its button', async () => {
    const { store } = mountApp('/');
    act(() => {
      store
        .getState()
        .toast({ title: 'Payment Error', description: 'An unexpected error occurred' });
    });
    const title = await screen.findByText('Payment Error');
    expect(linesOf(title.closest('li')!)).toEqual([
      'Payment Error',
      'An unexpected error occurred',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(store.getState().toasts[0]?.open).toBe(false);
    expect(title.isConnected).toBe(false);
  });

  it('closes a toast by itself once its time is up, not before', () => {
    vi.useFakeTimers();
    try {
      const { store } = mountApp('/');
      act(() => {
        store.getState().toast({ title: 'Payment Authorized' });
      });
      within(screen.getByRole('region', { name: 'Notifications (F8)' })).getByText(
        'Payment Authorized',
      );
      act(() => {
        vi.advanceTimersByTime(TOAST_DURATION_MS - 1);
      });
      expect(store.getState().toasts[0]?.open).toBe(true);
      act(() => {
        vi.advanceTimersByTime(1);
      });
      expect(store.getState().toasts[0]?.open).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes the keyboard to the notifications on F8', () => {
    const { store } = mountApp('/');
    act(() => {
      store.getState().toast({ title: 'Payment Authorized' });
    });
    const region = screen.getByRole('region', { name: 'Notifications (F8)' });
    expect(region.contains(document.activeElement)).toBe(false);
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    expect(region.contains(document.activeElement)).toBe(true);
  });
});
