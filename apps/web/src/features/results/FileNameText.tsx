/**
 * The tail PlacePort adds to a list's name in a file name: a number telling same-named files
 * apart (` (2)`), a part (` (part 2 of 3)`), an extension. Anchored at the end, each piece
 * optional, so a name of any length is read once.
 */
const OUR_TAIL = /(?: \(\d+\))?(?: \(part \d+ of \d+\))?(?: - failed-places)?\.[a-z]+$/;

/** A file name's stem (the list's name, as made safe) and the tail PlacePort added to it. */
export function splitFileName(fileName: string): { stem: string; tail: string } {
  const at = OUR_TAIL.exec(fileName)?.index ?? fileName.length;
  return { stem: fileName.slice(0, at), tail: fileName.slice(at) };
}

/**
 * A file name as text: the list's part in its own direction (`<bdi>`, as the selection shows the
 * list's name), PlacePort's tail after it, left to right, so a Hebrew list's `שלום (2).kml` does
 * not read `(2) שלום.kml`.
 */
export function FileNameText({ fileName }: { fileName: string }) {
  const { stem, tail } = splitFileName(fileName);
  return (
    <>
      <bdi>{stem}</bdi>
      {tail}
    </>
  );
}
