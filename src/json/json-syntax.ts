// Strict JSON into a tree of offsets, for parseJsonText. It replaces jsonc-parser's parseTree with the
// options parseJsonText used (comments refused, no trailing commas, no empty content) and gives the
// same tree and the same errors at the same offsets, recovery included (test/json/json-syntax.test.ts
// compares the two on fuzzed text): jsonc-parser was 3.5 kB of the minimal browser runtime's gzip
// bytes, most of it for comments, formatting and edits that animgraph never used.

/** A value in the tree: an object's children are its properties, each [key, value]. */
export interface SyntaxNode {
  readonly type: "object" | "array" | "property" | "string" | "number" | "boolean" | "null";
  readonly offset: number;
  readonly length: number;
  readonly value?: string | number | boolean | null;
  readonly children?: SyntaxNode[];
}

/** A syntax error: what was wrong (words, e.g. "comma expected") and the offset of the token at fault. */
export interface SyntaxError {
  readonly message: string;
  readonly offset: number;
}

// Error names in jsonc-parser's ParseErrorCode order (1-based), as words.
const ERRORS = ["invalid symbol", "", "property name expected", "value expected", "colon expected", "comma expected",
  "close brace expected", "close bracket expected", "end of file expected", "invalid comment token", "",
  "unexpected end of string", "unexpected end of number", "invalid unicode", "invalid escape character", "invalid character"];

// Tokens.
// Typed as number so that a check of `token` after next() is not narrowed away by the one before it.
const OPEN_BRACE: number = 1, CLOSE_BRACE: number = 2, OPEN_BRACKET: number = 3, CLOSE_BRACKET: number = 4,
  COMMA: number = 5, COLON: number = 6, LITERAL: number = 7, STRING: number = 10, NUMBER: number = 11,
  COMMENT: number = 12, LINE_BREAK: number = 14, TRIVIA: number = 15, UNKNOWN: number = 16, EOF: number = 17;
const PUNCTUATION: Record<string, number> = { "{": OPEN_BRACE, "}": CLOSE_BRACE, "[": OPEN_BRACKET, "]": CLOSE_BRACKET, ",": COMMA, ":": COLON };
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
const isSpace = (c: string | undefined): boolean => c === " " || c === "\t";
const isBreak = (c: string | undefined): boolean => c === "\n" || c === "\r";

/** Parses `text`; the tree is complete only when `errors` is empty. */
export function parseJsonSyntax(text: string): { tree: SyntaxNode | undefined; errors: SyntaxError[] } {
  const len = text.length;
  const errors: SyntaxError[] = [];
  let pos = 0;
  let token = UNKNOWN;
  let start = 0;
  let scanError = 0;
  let value: string | number | boolean | null = "";

  const digits = (): void => {
    while (isDigit(text[pos])) pos++;
  };
  const scanString = (): string => {
    let out = "";
    for (;;) {
      const c = text[pos];
      if (c === undefined || isBreak(c)) {
        scanError = 12;
        return out;
      }
      pos++;
      if (c === '"') return out;
      if (c !== "\\") {
        if (c < " ") scanError = 16; // a control character: marked, and the string goes on
        out += c;
        continue;
      }
      const e = text[pos++];
      if (e === undefined) {
        scanError = 12;
        return out;
      }
      if (e === "u") {
        const hex = /^[0-9a-fA-F]{0,4}/.exec(text.slice(pos, pos + 4))![0];
        pos += hex.length;
        if (hex.length === 4) out += String.fromCharCode(parseInt(hex, 16));
        else scanError = 14;
      } else if (e in ESCAPES) out += ESCAPES[e];
      else scanError = 15;
    }
  };
  const scan = (): number => {
    scanError = 0;
    start = pos;
    const c = text[pos];
    if (c === undefined) {
      start = len; // past an unclosed comment's end too
      return EOF;
    }
    pos++;
    if (isSpace(c)) {
      while (isSpace(text[pos])) pos++;
      return TRIVIA;
    }
    if (isBreak(c)) {
      if (c === "\r" && text[pos] === "\n") pos++;
      return LINE_BREAK;
    }
    if (c in PUNCTUATION) return PUNCTUATION[c]!;
    if (c === '"') {
      value = scanString();
      return STRING;
    }
    if (c === "/") {
      if (text[pos] === "/") {
        while (pos < len && !isBreak(text[pos])) pos++;
        return COMMENT;
      }
      if (text[pos] === "*") {
        const end = text.indexOf("*/", pos + 1);
        // Unclosed: the comment runs to the end (one past it when nothing follows "/*").
        pos = end < 0 ? Math.max(len, pos + 2) : end + 2;
        return COMMENT;
      }
      return UNKNOWN;
    }
    if (c === "-" && !isDigit(text[pos])) return UNKNOWN;
    if (c === "-" || isDigit(c)) {
      // jsonc-parser's number: a leading 0 ends the integer part; a dot or exponent without digits is
      // an error, and the exponent's letters stay out of the value.
      if (c === "-") pos++;
      if (text[pos - 1] !== "0") digits();
      let end = pos;
      if (text[pos] === ".") {
        pos++;
        if (!isDigit(text[pos])) {
          scanError = 13;
          value = Number(text.slice(start, pos));
          return NUMBER;
        }
        digits();
        end = pos;
      }
      if (text[pos] === "e" || text[pos] === "E") {
        pos++;
        if (text[pos] === "+" || text[pos] === "-") pos++;
        if (isDigit(text[pos])) {
          digits();
          end = pos;
        } else scanError = 13;
      }
      value = Number(text.slice(start, end));
      return NUMBER;
    }
    // A word runs to the next structural character or space, as in jsonc-parser (so "\f" is part of one).
    while (pos < len && !' \t\n\r{}[]":,/'.includes(text[pos]!)) pos++;
    const word = text.slice(start, pos);
    if (word !== "true" && word !== "false" && word !== "null") return UNKNOWN;
    value = word === "null" ? null : word === "true";
    return LITERAL;
  };
  const error = (code: number): void => {
    errors.push({ message: ERRORS[code - 1]!, offset: start });
  };
  // The next token that is not trivia; scan errors, comments and unknown symbols are reported on the way.
  const next = (): number => {
    for (;;) {
      token = scan();
      if (scanError) error(scanError);
      if (token === COMMENT) error(10);
      else if (token === UNKNOWN) error(1);
      else if (token !== TRIVIA && token !== LINE_BREAK) return token;
    }
  };
  // Reports `code`, then skips to (and past, for `after`) the first token in the given sets.
  const fail = (code: number, until: readonly number[] = [], after?: number): void => {
    error(code);
    if (until.length === 0 && after === undefined) return;
    while (token !== EOF) {
      if (token === after) {
        next();
        return;
      }
      if (until.includes(token)) return;
      next();
    }
  };
  const leaf = (type: SyntaxNode["type"], v: string | number | boolean | null): SyntaxNode =>
    ({ type, offset: start, length: pos - start, value: v });

  const parseValue = (into: SyntaxNode[]): boolean => {
    if (token === OPEN_BRACE || token === OPEN_BRACKET) {
      const isObject = token === OPEN_BRACE;
      const close = isObject ? CLOSE_BRACE : CLOSE_BRACKET;
      const children: SyntaxNode[] = [];
      const offset = start;
      next();
      let needsComma = false;
      while (token !== close && token !== EOF) {
        if (token === COMMA) {
          if (!needsComma) fail(4);
          next();
        } else if (needsComma) fail(6);
        if (isObject) {
          if (token !== STRING) fail(3, [CLOSE_BRACE, COMMA]);
          else {
            const key = leaf("string", value);
            const property: SyntaxNode = { type: "property", offset: key.offset, length: 0, children: [key] };
            children.push(property);
            if (next() === COLON) {
              next();
              if (!parseValue(property.children!)) fail(4, [CLOSE_BRACE, COMMA]);
            } else fail(5, [CLOSE_BRACE, COMMA]);
            needsComma = true;
            continue;
          }
        } else if (parseValue(children)) {
          needsComma = true;
          continue;
        }
        fail(4, [close, COMMA]);
        needsComma = true;
      }
      into.push({ type: isObject ? "object" : "array", offset, length: pos - offset, children });
      if (token !== close) fail(isObject ? 7 : 8, [], close);
      else next();
      return true;
    }
    if (token === STRING) into.push(leaf("string", value));
    else if (token === NUMBER) into.push(leaf("number", value));
    else if (token === LITERAL) into.push(leaf(value === null ? "null" : "boolean", value));
    else return false;
    next();
    return true;
  };

  const root: SyntaxNode[] = [];
  if (next() === EOF || !parseValue(root)) fail(4);
  else if (token !== EOF) fail(9);
  return { tree: root[0], errors };
}
