/**
 * JSON Patch (RFC 6902), shared by the build (changes/history.ts checks and replays the
 * histories it writes) and the edge (edge/history.ts rebuilds objects for ?version=): the edge
 * function loads no package, so the few lines are here; test/unit/versionsInMemory.test.ts checks them
 * against the fast-json-patch library.
 */
import type { HistoryJson } from './schemas.ts';

export type PatchOperation = NonNullable<HistoryJson['versions'][number]['patch']>[number];
type Container = Record<string, unknown> | unknown[];

/** The reference tokens of a JSON Pointer (RFC 6901). */
function tokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`JSON Pointer "${pointer}" does not start with /`);
  return pointer.slice(1).split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A member or element of `node`: own members only, so `__proto__` or `constructor` is a member like any other. */
const childOf = (node: unknown, token: string): unknown =>
  Array.isArray(node) ? node[Number(token)] : node !== null && typeof node === 'object' && Object.hasOwn(node, token) ? (node as Record<string, unknown>)[token] : undefined;

/** Sets a member as an own property (an assignment to `__proto__` would change the prototype instead). */
export const setMember = (object: Record<string, unknown>, token: string, value: unknown): void =>
  void Object.defineProperty(object, token, { value, writable: true, enumerable: true, configurable: true });

/** The container a pointer's last token lives in, and that token. */
function parentOf(document: unknown, pointer: string): [Container, string] {
  const path = tokens(pointer);
  const last = path.pop()!;
  let node = document;
  for (const token of path) {
    node = childOf(node, token);
    if (node === null || typeof node !== 'object') throw new Error(`JSON Pointer "${pointer}" leads through a missing or scalar value`);
  }
  return [node as Container, last];
}

const indexIn = (array: unknown[], token: string, adding: boolean): number => {
  const index = token === '-' && adding ? array.length : Number(token);
  if (!/^(0|[1-9]\d*|-)$/.test(token) || index > array.length - (adding ? 0 : 1)) throw new Error(`array index "${token}" out of range`);
  return index;
};

const valueAt = (document: unknown, pointer: string): unknown => tokens(pointer).reduce<unknown>(childOf, document);

function add(document: unknown, pointer: string, value: unknown): unknown {
  if (pointer === '') return value;
  const [parent, token] = parentOf(document, pointer);
  if (Array.isArray(parent)) parent.splice(indexIn(parent, token, true), 0, value);
  else setMember(parent, token, value);
  return document;
}

/** Replaces in place, so an object's members keep their order. */
function replace(document: unknown, pointer: string, value: unknown): unknown {
  if (pointer === '') return value;
  const [parent, token] = parentOf(document, pointer);
  if (Array.isArray(parent)) parent[indexIn(parent, token, false)] = value;
  else if (Object.hasOwn(parent, token)) setMember(parent, token, value);
  else throw new Error(`no member "${token}" to replace at "${pointer}"`);
  return document;
}

function remove(document: unknown, pointer: string): unknown {
  const [parent, token] = parentOf(document, pointer);
  if (Array.isArray(parent)) parent.splice(indexIn(parent, token, false), 1);
  else if (Object.hasOwn(parent, token)) delete parent[token];
  else throw new Error(`no member "${token}" to remove at "${pointer}"`);
  return document;
}

/** `document` with `patch` applied (RFC 6902; `test` compares JSON texts). Changes `document` in place where it can. */
export function applyPatch(document: unknown, patch: PatchOperation[]): unknown {
  const copy = (value: unknown) => (value === undefined ? null : JSON.parse(JSON.stringify(value)));
  return patch.reduce<unknown>((doc, { op, path, value, from }) => {
    switch (op) {
      case 'add': return add(doc, path, copy(value));
      case 'remove': return remove(doc, path);
      case 'replace': return replace(doc, path, copy(value));
      case 'move': {
        const moved = valueAt(doc, from!);
        return add(remove(doc, from!), path, moved);
      }
      case 'copy': return add(doc, path, copy(valueAt(doc, from!)));
      case 'test':
        if (JSON.stringify(valueAt(doc, path)) !== JSON.stringify(value)) throw new Error(`test failed at "${path}"`);
        return doc;
    }
  }, document);
}
