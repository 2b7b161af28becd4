/** A decoded Stripe form body: bracketed keys (`metadata[places]=12`) become nested objects. */
export interface FormObject {
  [key: string]: string | FormObject;
}

function keyPath(name: string): string[] {
  const first = /^[^[]+/.exec(name)?.[0] ?? name;
  const rest = [...name.slice(first.length).matchAll(/\[([^\]]*)\]/g)].map((match) => match[1]!);
  return [first, ...rest];
}

/**
 * Decodes `application/x-www-form-urlencoded` text the way Stripe reads it, so tests can assert on
 * `body.metadata.places` rather than on raw strings. Repeated keys keep the last value.
 */
export function decodeForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const path = keyPath(name);
    let node = root;
    path.forEach((segment, index) => {
      if (index === path.length - 1) {
        node[segment] = value;
        return;
      }
      const next = node[segment];
      if (typeof next === 'object') {
        node = next;
      } else {
        const created: FormObject = {};
        node[segment] = created;
        node = created;
      }
    });
  }
  return root;
}

/** Reads a nested string field, e.g. `field(body, 'metadata', 'places')`. */
export function field(body: FormObject, ...path: string[]): string | undefined {
  let node: string | FormObject | undefined = body;
  for (const segment of path) {
    if (typeof node !== 'object') return undefined;
    node = node[segment];
  }
  return typeof node === 'string' ? node : undefined;
}
