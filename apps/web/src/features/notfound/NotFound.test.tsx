import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { linesOf } from '../../test/reads';
import { NOT_FOUND_TITLE, NotFound } from './NotFound';

describe('NotFound', () => {
  it("shows the seed's texts and names itself in the tab's title while shown", () => {
    document.title = 'PlacePort';
    const view = render(<NotFound />);
    expect(linesOf(screen.getByRole('main'))).toEqual([
      '404',
      '404 Page Not Found',
      'Did you forget to add the page to the router?',
      'Go to the converter',
    ]);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('404 Page Not Found');
    expect(screen.getByRole('link', { name: 'Go to the converter' }).getAttribute('href')).toBe(
      '/',
    );
    expect(document.title).toBe(NOT_FOUND_TITLE);
    view.unmount();
    expect(document.title).toBe('PlacePort');
  });
});
