import { constructFromEvents, CORE_SCHEMA, Event, EVENT_ID, getScalarValue, parseEvents, SCALAR_STYLE, ScalarEvent } from 'js-yaml';
import { DomainError, invalid } from '@cds/errors';
import { SourceLines } from './source-lines';

export interface Position {
  line: number;
  column: number;
}

export interface YamlScalar extends Position {
  kind: 'scalar';
  /** The text as written, unescaped (for a plain `1.0`, "1.0"). */
  text: string;
  plain: boolean;
  /** The value under the YAML 1.2 core schema (number, boolean, null or string). */
  resolve(): unknown;
}

export interface YamlEntry {
  key: YamlScalar;
  value: YamlNode;
}

export interface YamlMapping extends Position {
  kind: 'mapping';
  entries: YamlEntry[];
}

export interface YamlSequence extends Position {
  kind: 'sequence';
  items: YamlNode[];
}

export type YamlNode = YamlScalar | YamlMapping | YamlSequence;

export function yamlError(at: Position, reason: string): DomainError {
  return invalid('INVALID_POLICY_YAML', `line ${at.line}: ${reason}`, `line ${at.line}, column ${at.column}`);
}

/** Quotes a caller's text for a message, shortened so a message stays readable. */
export function quote(text: string, max = 40): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}...` : text);
}

/**
 * Reads one YAML document into a tree whose nodes know their line. Only the plain
 * data subset of YAML is accepted: no anchors, aliases or tags, one document,
 * scalar keys, no duplicate keys, bounded nesting. Aliases are refused before
 * anything is built, so an alias bomb costs no more than its own text.
 * Returns null for an empty document. Throws INVALID_POLICY_YAML naming the line.
 */
export function readYamlDocument(source: string, maxDepth: number): YamlNode | null {
  const lines = new SourceLines(source);
  let events: Event[];
  try {
    events = parseEvents(source, { maxDepth });
  } catch (e) {
    throw syntaxError(e, lines, maxDepth);
  }
  return new TreeReader(source, events, lines).document();
}

function syntaxError(e: unknown, lines: SourceLines, maxDepth: number): DomainError {
  const mark = (e as { mark?: { position?: number } }).mark;
  const at = lines.at(typeof mark?.position === 'number' ? mark.position : 0);
  let reason = typeof (e as { reason?: unknown }).reason === 'string' ? (e as { reason: string }).reason : 'the YAML could not be read';
  if (reason.startsWith('nesting exceeded maxDepth')) {
    reason = `nesting is too deep (at most ${maxDepth - 1} levels of lists and mappings)`;
  }
  return yamlError(at, reason);
}

const POP: Event = { type: EVENT_ID.POP };

class TreeReader {
  private i = 0;
  private last: Position = { line: 1, column: 1 };
  private lastEnd = 0;

  constructor(
    private readonly source: string,
    private readonly events: Event[],
    private readonly lines: SourceLines,
  ) {}

  document(): YamlNode | null {
    if (this.events.length === 0) return null;
    this.i = 1; // past the document event
    const root = this.node();
    this.i++; // the document's pop
    if (this.i < this.events.length) throw yamlError(this.secondDocumentAt(), 'only one YAML document is allowed (a second document starts here)');
    if (root.kind === 'scalar' && root.plain && root.resolve() === null) return null;
    return root;
  }

  private node(): YamlNode {
    const ev = this.events[this.i++];
    switch (ev.type) {
      case EVENT_ID.ALIAS:
        throw yamlError(this.at(ev.anchorStart), `aliases (*${this.slice(ev.anchorStart, ev.anchorEnd)}) are not allowed in a policy`);
      case EVENT_ID.SCALAR:
        this.refuseAnchorAndTag(ev);
        return this.scalar(ev);
      case EVENT_ID.MAPPING:
        this.refuseAnchorAndTag(ev);
        return this.mapping(this.at(ev.start));
      case EVENT_ID.SEQUENCE:
        this.refuseAnchorAndTag(ev);
        return this.sequence(this.at(ev.start));
      default:
        // parseEvents nests documents, collections and pops correctly; anything
        // else here means the event stream is not what this reader understands.
        throw yamlError(this.last, 'the YAML could not be read');
    }
  }

  private refuseAnchorAndTag(ev: { anchorStart: number; anchorEnd: number; tagStart: number; tagEnd: number }): void {
    if (ev.anchorStart >= 0) {
      throw yamlError(this.at(ev.anchorStart), `anchors (&${this.slice(ev.anchorStart, ev.anchorEnd)}) are not allowed in a policy`);
    }
    if (ev.tagStart >= 0) {
      throw yamlError(this.at(ev.tagStart), `YAML tags (${this.slice(ev.tagStart, ev.tagEnd)}) are not allowed in a policy`);
    }
  }

  private scalar(ev: ScalarEvent): YamlScalar {
    const at = this.at(ev.valueStart);
    if (ev.valueEnd > this.lastEnd) this.lastEnd = ev.valueEnd;
    const text = getScalarValue(this.source, ev);
    const plain = ev.style === SCALAR_STYLE.PLAIN;
    let resolved: { value: unknown } | undefined;
    const resolve = (): unknown => {
      // A quoted or block scalar without a tag is always a string; a plain one is
      // resolved by js-yaml itself, as a one-scalar document.
      resolved ??= {
        value: plain ? constructFromEvents([this.events[0], ev, POP], { source: this.source, schema: CORE_SCHEMA, maxAliases: 0 })[0] : text,
      };
      return resolved.value;
    };
    return { kind: 'scalar', text, plain, resolve, ...at };
  }

  private mapping(at: Position): YamlMapping {
    const entries: YamlEntry[] = [];
    const seen = new Map<string, Position>();
    while (this.events[this.i].type !== EVENT_ID.POP) {
      const key = this.node();
      if (key.kind !== 'scalar') throw yamlError(key, 'mapping keys must be plain text, not a list or a mapping');
      const first = seen.get(key.text);
      if (first) throw yamlError(key, `duplicate key ${quote(key.text)} (first defined on line ${first.line})`);
      seen.set(key.text, key);
      entries.push({ key, value: this.node() });
    }
    this.i++;
    return { kind: 'mapping', entries, ...at };
  }

  private sequence(at: Position): YamlSequence {
    const items: YamlNode[] = [];
    while (this.events[this.i].type !== EVENT_ID.POP) items.push(this.node());
    this.i++;
    return { kind: 'sequence', items, ...at };
  }

  /** An empty value (`threshold:`) has no offset of its own; it takes the position
   * of what precedes it, which for a mapping value is its key. */
  private at(offset: number): Position {
    if (offset >= 0) this.last = this.lines.at(offset);
    return this.last;
  }

  private slice(start: number, end: number): string {
    return this.source.slice(start, Math.min(end, start + 40));
  }

  /** The first located event of the next document; an empty next document has
   * none, so the line after the end of the first document's content is named. */
  private secondDocumentAt(): Position {
    for (let j = this.i; j < this.events.length; j++) {
      const ev = this.events[j];
      const offset = ev.type === EVENT_ID.SCALAR ? ev.valueStart : ev.type === EVENT_ID.MAPPING || ev.type === EVENT_ID.SEQUENCE ? ev.start : -1;
      if (offset >= 0) return this.lines.at(offset);
    }
    const end = this.lines.at(this.lastEnd);
    return { line: end.line + 1, column: 1 };
  }
}
