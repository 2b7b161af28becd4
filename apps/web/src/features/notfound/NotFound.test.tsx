import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NOT_FOUND_TITLE, NotFound } from './NotFound';

describe('NotFound', () => {
  it("shows the seed's texts and names itself in the tab's title while shown", () => {
    document.title = 'PlacePort';
    const view = render(<NotFound />);
    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the converter' }).getAttribute('href')).toBe(
      '/',
    );
    expect(document.title).toBe(NOT_FOUND_TITLE);
    view.unmount();
    expect(document.title).toBe('PlacePort');
  });
});
