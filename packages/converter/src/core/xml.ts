/**
 * A tiny escaping XML builder (after placemark/tokml's `x()`): every text and attribute value passes
 * through `escapeXml`, so raw values are never concatenated into markup.
 */

// Characters XML 1.0 forbids: C0 controls other than tab, LF, CR; U+FFFE/U+FFFF; lone surrogates.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const SPECIAL = /[&<>"']/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Removes characters that may not appear in an XML 1.0 document. */
export function stripForbiddenXmlChars(text: string): string {
  return text.replace(FORBIDDEN, '');
}

/** Escapes text for use as XML character data or an attribute value, after removing forbidden characters. */
export function escapeXml(text: string): string {
  return stripForbiddenXmlChars(text).replace(SPECIAL, (char) => ENTITIES[char]!);
}

/** Markup that is already escaped. Only the builder creates it. */
export interface Markup {
  readonly xml: string;
}

type Child = Markup | string | number | null | undefined | false;

/** An element with escaped attributes and children; strings and numbers are escaped as text. */
export function el(name: string, attributes: Record<string, string> | null, ...children: Child[]): Markup {
  let open = `<${name}`;
  if (attributes) {
    for (const [key, value] of Object.entries(attributes)) open += ` ${key}="${escapeXml(value)}"`;
  }
  let inner = '';
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    inner += typeof child === 'object' ? child.xml : escapeXml(String(child));
  }
  return { xml: inner ? `${open}>${inner}</${name}>` : `${open}/>` };
}

/** Joins built markup without escaping it again. */
export function fragment(children: readonly Markup[]): Markup {
  return { xml: children.map((child) => child.xml).join('') };
}

/** A whole XML document with its declaration. */
export function xmlDocument(root: Markup): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${root.xml}\n`;
}
