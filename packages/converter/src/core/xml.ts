/* eslint-disable no-control-regex -- the XML 1.0 character rules are about control characters */
/**
 * A tiny escaping XML builder (after placemark/tokml's `x()`/`toXml`): the `xml` tagged template escapes
 * every interpolated value unless it is markup the builder made itself, so raw values are never
 * concatenated into a document.
 */

// Characters XML 1.0 forbids: C0 controls other than tab, LF, CR; U+FFFE/U+FFFF; lone surrogates.
const FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// Anything that needs work: a special character, a forbidden one, or any surrogate (checked precisely after).
const WORK = String.raw`&<>"'\u0000-\u0008\u000B\u000C\u000E-\u001F\u0085\u2028\u2029\uD800-\uDFFF\uFFFE\uFFFF`;
const NEEDS_WORK = new RegExp(`[${WORK}]`);
// The same, or a line feed (which HTML text turns into `<br>`).
const NEEDS_WORK_OR_LF = new RegExp(String.raw`[\n${WORK}]`);
const MAY_BE_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/**
 * False when {@link escapeXml} would give `text` back as it is (most of a list's text), and, with
 * `lineFeeds`, when it holds no line feed either.
 */
export function needsEscaping(text: string, lineFeeds = false): boolean {
  return (lineFeeds ? NEEDS_WORK_OR_LF : NEEDS_WORK).test(text);
}

/** Removes characters that may not appear in an XML 1.0 document. */
export function stripForbiddenXmlChars(text: string): string {
  return MAY_BE_FORBIDDEN.test(text) ? text.replace(FORBIDDEN, '') : text;
}

/** Escapes text for use as XML character data or an attribute value, after removing forbidden characters. */
export function escapeXml(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  const clean = stripForbiddenXmlChars(text);
  let out = '';
  let last = 0;
  for (let i = 0; i < clean.length; i += 1) {
    let entity: string;
    switch (clean.charCodeAt(i)) {
      case 38:
        entity = '&amp;';
        break;
      case 60:
        entity = '&lt;';
        break;
      case 62:
        entity = '&gt;';
        break;
      case 34:
        entity = '&quot;';
        break;
      case 39:
        entity = '&apos;';
        break;
      // NEL and the Unicode line and paragraph separators are line ends to XML 1.1 readers (and to
      // @xmldom/xmldom), which would turn them into \n; as character references they reach every
      // reader as written.
      case 0x85:
        entity = '&#133;';
        break;
      case 0x2028:
        entity = '&#8232;';
        break;
      case 0x2029:
        entity = '&#8233;';
        break;
      default:
        continue;
    }
    out += clean.slice(last, i) + entity;
    last = i + 1;
  }
  return last === 0 ? clean : out + clean.slice(last);
}

/** Markup that is already escaped. Only the builder creates it. */
export class Markup {
  constructor(readonly xml: string) {}
}

type Value = Markup | string | number | null | undefined | false | readonly Markup[];

function render(value: Value): string {
  if (typeof value === 'string') return escapeXml(value);
  if (value instanceof Markup) return value.xml;
  if (typeof value === 'number') return escapeXml(String(value));
  if (Array.isArray(value)) {
    const parts = new Array<string>(value.length);
    for (let i = 0; i < value.length; i += 1) parts[i] = (value[i] as Markup).xml;
    return parts.join('');
  }
  return '';
}

/**
 * Builds markup from a template: literal parts are trusted markup, every `${value}` is escaped text
 * (or, when it is Markup or an array of Markup, inserted as is). `null`, `undefined` and `false` render nothing.
 */
export function xml(strings: TemplateStringsArray, ...values: Value[]): Markup {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i += 1) out += render(values[i]!) + strings[i + 1]!;
  return new Markup(out);
}

/** The XML declaration followed by the opening markup of a document whose closing tags the caller appends. */
export function xmlDocumentStart(open: Markup): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${open.xml}`;
}
