import { screen, within } from '@testing-library/react';

/**
 * What `element` reads, as a person sees it: the text of each element inside it that holds text
 * of its own, in document order (a heading, a message, a button's label). Asserting the whole list
 * pins the words and that nothing else is said there, which finding one text by itself does not.
 */
export function linesOf(element: HTMLElement): string[] {
  return within(element)
    .queryAllByText(/\S/)
    .map((node) => node.textContent ?? '');
}

/**
 * The one line on the page that `pattern` picks out, as it reads. Find it by the part that stays
 * the same (`/lists selected$/`), then assert the whole: a wrong count then fails showing what the
 * page said, rather than "not found".
 */
export function lineMatching(pattern: RegExp): string | null {
  return screen.getByText(pattern).textContent;
}
