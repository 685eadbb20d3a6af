/** Minimal RFC 4180 reader (quoted fields, doubled quotes, newlines inside quotes, BOM). */
export function parseDelimited(text: string, delimiter = ','): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let inQuotes = false;
  let fieldStart = true;
  while (i < text.length) {
    const c = text[i];
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        inQuotes = false;
        i++;
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"' && fieldStart) {
      inQuotes = true;
      fieldStart = false;
      i++;
      continue;
    }
    if (c === delimiter) {
      row.push(field);
      field = '';
      fieldStart = true;
      i++;
      continue;
    }
    if (c === '\n' || c === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      fieldStart = true;
      i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
      continue;
    }
    field += c;
    fieldStart = false;
    i++;
  }
  if (field.length > 0 || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}

/** Rows as objects keyed by the header row. */
export function parseCsvObjects(text: string, delimiter = ','): Record<string, string>[] {
  const rows = parseDelimited(text, delimiter);
  if (rows.length === 0) return [];
  const header = rows[0].map((h) => h.trim());
  return rows.slice(1).map((r) => {
    const o: Record<string, string> = {};
    header.forEach((h, i) => (o[h] = r[i] ?? ''));
    return o;
  });
}

/** Tab-separated lines without quoting (GermEval, OffensEval). */
export function parsePlainTsv(text: string): string[][] {
  return text
    .replace(/^\ufeff/, '')
    .split(/\r?\n/)
    .filter((l) => l.length > 0)
    .map((l) => l.split('\t'));
}

/** Parses a Python list-of-strings literal (`['a', "b's"]`) leniently; unterminated items are kept. */
export function parsePythonStringList(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const q = text[i];
    if (q !== "'" && q !== '"') {
      i++;
      continue;
    }
    let s = '';
    i++;
    while (i < text.length && text[i] !== q) {
      if (text[i] === '\\' && i + 1 < text.length) {
        const n = text[i + 1];
        s += n === 'n' ? '\n' : n === 't' ? '\t' : n;
        i += 2;
        continue;
      }
      s += text[i++];
    }
    i++;
    out.push(s);
  }
  return out;
}
