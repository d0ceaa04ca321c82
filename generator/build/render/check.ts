/**
 * Checks values against the declared schemas (schemas.ts) at build time, with TypeBox's
 * compiler: each schema is compiled once per process into a plain function, so checking
 * every published object costs little.
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { components } from '../../contract/schemas.ts';

const REF = '#/components/schemas/';
const compiled = new Map<TSchema, TypeCheck<TSchema>>();

/**
 * `schema` with each `$ref` to a component replaced by that component (the named schemas are
 * TypeBox `Unsafe` refs, which the compiler does not follow); TypeBox's own keys (symbols) are kept.
 */
function resolved(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(resolved);
  if (typeof schema !== 'object' || schema === null) return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith(REF)) return resolved(components[ref.slice(REF.length)]);
  const copy: Record<string | symbol, unknown> = {};
  for (const key of Reflect.ownKeys(schema)) copy[key] = resolved((schema as Record<string | symbol, unknown>)[key]);
  return copy;
}

function checkerOf(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(resolved(schema) as TSchema);
    compiled.set(schema, check);
  }
  return check;
}

/** Null when `value` fits `schema`; else the first misfit: its JSON path, what was expected and what was there. */
export function misfit(schema: TSchema, value: unknown): string | null {
  const check = checkerOf(schema);
  if (check.Check(value)) return null;
  const error = check.Errors(value).First();
  if (!error) return 'does not fit its schema';
  const found = typeof error.value === 'number' && !Number.isFinite(error.value) ? String(error.value) : JSON.stringify(error.value);
  return `${error.path || '/'}: ${error.message}, found ${found === undefined ? 'nothing' : found.slice(0, 60)}`;
}
