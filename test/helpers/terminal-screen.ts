// What a terminal shows after a program's output: a grid of rows × columns that the output's text, cursor moves and
// erases are applied to, as a VT100-style terminal does. A full-screen program (Claude Code's interface) redraws
// only the cells that changed, so its text can be read from the screen but not from the byte stream. Colours, modes
// and queries are ignored; every character takes one cell.

export class TerminalScreen {
  private lines: string[][];
  private row = 0;
  private col = 0;
  private saved = { row: 0, col: 0 };
  private pending = '';

  constructor(
    readonly columns: number,
    readonly rows: number,
  ) {
    this.lines = Array.from({ length: rows }, () => this.blank());
  }

  /** Applies more output (a sequence split across two writes is completed by the next). */
  write(data: string): void {
    const text = this.pending + data;
    this.pending = '';
    let i = 0;
    while (i < text.length) {
      const ch = text[i];
      if (ch === '\x1b') {
        const used = this.escape(text, i);
        if (used === 0) {
          this.pending = text.slice(i);
          return;
        }
        i += used;
        continue;
      }
      i += 1;
      if (ch === '\r') this.col = 0;
      else if (ch === '\n') this.lineFeed();
      else if (ch === '\b') this.col = Math.max(0, this.col - 1);
      else if (ch >= ' ') this.print(ch);
    }
  }

  /** The screen's rows as text, trailing blanks removed. */
  text(): string[] {
    return this.lines.map((line) => line.join('').trimEnd());
  }

  private blank(): string[] {
    return Array<string>(this.columns).fill(' ');
  }

  private print(ch: string): void {
    if (this.col >= this.columns) {
      this.col = 0;
      this.lineFeed();
    }
    this.lines[this.row][this.col] = ch;
    this.col += 1;
  }

  private lineFeed(): void {
    if (this.row < this.rows - 1) this.row += 1;
    else {
      this.lines.shift();
      this.lines.push(this.blank());
    }
  }

  /** Applies the escape sequence at `start` and returns its length, or 0 when it is not complete yet. */
  private escape(text: string, start: number): number {
    const kind = text[start + 1];
    if (kind === undefined) return 0;
    if (kind === '[') {
      const match = /^([0-9;?<=>]*)([ -/]*)([@-~])/.exec(text.slice(start + 2, start + 64));
      if (!match) return text.length - start < 64 ? 0 : 2;
      if (match[2] === '') this.csi(match[1], match[3]);
      return match[0].length + 2;
    }
    if (kind === ']' || kind === 'P' || kind === '_') {
      // OSC (window title), DCS, APC: ended by BEL or ESC \.
      const rest = text.slice(start + 2);
      const bel = rest.indexOf('\x07');
      const st = rest.indexOf('\x1b\\');
      const ends = [bel === -1 ? Infinity : bel + 1, st === -1 ? Infinity : st + 2];
      const end = Math.min(...ends);
      return end === Infinity ? 0 : end + 2;
    }
    if (kind === '7') this.saved = { row: this.row, col: this.col };
    if (kind === '8') ({ row: this.row, col: this.col } = this.saved);
    if (kind === '(' || kind === ')') return text.length - start < 3 ? 0 : 3;
    return 2;
  }

  private csi(params: string, final: string): void {
    if (/^[?<=>]/.test(params)) return;
    const numbers = params.split(';').map((value) => Number.parseInt(value, 10));
    const n = Number.isNaN(numbers[0]) || numbers[0] === 0 ? 1 : numbers[0];
    const clampRow = (row: number) => Math.min(this.rows - 1, Math.max(0, row));
    const clampCol = (col: number) => Math.min(this.columns - 1, Math.max(0, col));
    switch (final) {
      case 'A':
        this.row = clampRow(this.row - n);
        break;
      case 'B':
        this.row = clampRow(this.row + n);
        break;
      case 'C':
        this.col = clampCol(this.col + n);
        break;
      case 'D':
        this.col = clampCol(Math.min(this.col, this.columns - 1) - n);
        break;
      case 'G':
        this.col = clampCol(n - 1);
        break;
      case 'H':
      case 'f':
        this.row = clampRow(n - 1);
        this.col = clampCol((Number.isNaN(numbers[1]) || !numbers[1] ? 1 : numbers[1]) - 1);
        break;
      case 'K':
        this.eraseInLine(Number.isNaN(numbers[0]) ? 0 : numbers[0]);
        break;
      case 'J':
        this.eraseInDisplay(Number.isNaN(numbers[0]) ? 0 : numbers[0]);
        break;
      case 's':
        this.saved = { row: this.row, col: this.col };
        break;
      case 'u':
        ({ row: this.row, col: this.col } = this.saved);
        break;
    }
  }

  private eraseInLine(mode: number): void {
    const line = this.lines[this.row];
    const [from, to] = mode === 0 ? [this.col, this.columns] : mode === 1 ? [0, this.col + 1] : [0, this.columns];
    for (let c = from; c < Math.min(to, this.columns); c++) line[c] = ' ';
  }

  private eraseInDisplay(mode: number): void {
    if (mode === 0) {
      this.eraseInLine(0);
      for (let r = this.row + 1; r < this.rows; r++) this.lines[r] = this.blank();
    } else if (mode === 1) {
      this.eraseInLine(1);
      for (let r = 0; r < this.row; r++) this.lines[r] = this.blank();
    } else {
      this.lines = Array.from({ length: this.rows }, () => this.blank());
    }
  }
}
