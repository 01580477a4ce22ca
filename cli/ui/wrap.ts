// Long text in a narrow pane: broken into rows at spaces (an expression breaks between its operands),
// hard-broken only when a word alone is wider than the pane; continuation rows are indented so they
// read as one item. Nothing is cut: every character of the text is on some row.

/** The rows of `text` at most `width` characters wide. */
export function wrapText(text: string, width: number): string[] {
  const w = Math.max(1, width);
  if (text.length <= w) return [text];
  const lead = /^\s*/.exec(text)![0];
  // Continuation rows: the item's indentation plus two, unless that leaves too little room.
  const indent = w - lead.length - 2 >= 12 ? `${lead}  ` : '';
  const rows: string[] = [];
  let rest = text;
  let prefix = '';
  while (prefix.length + rest.length > w) {
    const room = w - prefix.length;
    // The last space that keeps the row within the width (not a leading one: that would loop).
    const space = rest.lastIndexOf(' ', room);
    const cut = space > (prefix ? 0 : lead.length) ? space : room;
    rows.push(prefix + rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).replace(/^ +/, '');
    prefix = indent;
  }
  if (rest.length > 0) rows.push(prefix + rest);
  return rows;
}
