/**
 * The contract as code: openapi.json is valid OpenAPI 3.1, every published file of the
 * sample and of a generated 4,000-card export validates against the schema its endpoint
 * publishes, the values keep the original services' field types, and docs/api.md and docs/search.md are the
 * one generated from the declarations.
 */
import fs from 'fs-extra';
import path from 'node:path';
import fg from 'fast-glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { allEndpoints, endpointOfFile } from '../../generator/contract/endpoints.ts';
import { GENERATED_DOCS, GENERATED_FILES } from '../../generator/build/docs/docs.ts';
import { bigSite, buildSample, readJson, tempDir } from '../helpers.ts';
import { responseValidators } from '../responseSchemas.ts';

type Json = any;

/** The original services' field tables: every field they documented, with its documented type. */
const SEED = {
  card: {
    id: 'integer', ordinal: 'integer', title: 'string', title_en: 'string', char_name: 'string', original_char_name: 'string',
    type_id: 'integer', illustrator: 'null|string', is_transform_disabled: 'flag', is_support_card: 'flag', is_costume_card: 'flag',
    is_pre_transformed: 'flag', rarity: 'integer', attribute: 'integer', skill: 'object|null', center_skill: 'object|null',
    hp_base: 'integer', normal_max_kizuna: 'integer', transformed_max_kizuna: 'integer', normal_max_level: 'integer',
    transformed_max_level: 'integer', normal_max_level_exp: 'integer', transformed_max_level_exp: 'integer',
    affiliation: 'integer', year: 'integer', sub_affiliation: 'integer', album_page_id: 'integer', extra_data: 'object',
    sets: 'array', smile: 'array', pure: 'array', cool: 'array', stamina: 'array', sell_price: 'array', exp_given: 'array',
  },
  skill: {
    id: 'integer', name: 'string', name_en: 'string', trigger_type: 'integer', effect_type: 'integer', level_max: 'integer',
    probability: 'array', effect_val: 'array', effect_dur: 'array', trigger_val: 'array',
  },
  centerSkill: {
    id: 'integer', name: 'string', name_en: 'string', effect_type: 'integer', percent: 'integer', extra_apply_type_name: 'string',
    extra_apply_type_name_en: 'string', extra_apply_type: 'integer', extra_effect: 'integer', extra_percent: 'integer',
  },
  stub: { id: 'integer', ordinal: 'integer', char_name: 'string', is_transform_disabled: 'flag', is_pre_transformed: 'flag', rarity: 'integer' },
  counts: { n_count: 'integer', t_count: 'integer', lm_count: 'integer', km_count: 'integer' },
  set: { id: 'string', preview: 'array', display_name: 'string' },
  accessoryListEntry: { id: 'integer', is_valid: 'boolean' },
  info: { api_major: 'integer', api_revision: 'integer', truth_version: 'string' },
  accessory: {
    id: 'integer', rarity: 'integer', name: 'string', name_en: 'string', level_max: 'integer', icon_name: 'string',
    trigger_type: 'null|integer', effect_type: 'integer', effect_targets: 'null|array', effect_target_name: 'null|string',
    is_limited: 'boolean', unit_ordinal: 'null|integer', unit_type_id: 'null|integer', smile: 'array', pure: 'array', cool: 'array',
    probability: 'array', effect_val: 'array', effect_dur: 'array', trigger_val: 'array',
  },
} satisfies Record<string, Record<string, string>>;

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v);
const fits = (value: unknown, type: string) => type.split('|').some((t) => (t === 'flag' ? value === 0 || value === 1 : kindOf(value) === t));

/** Fields of `object` that are missing or not of the documented type, as "<field>: <value>". */
function seedMismatches(object: Json, table: Record<string, string>): string[] {
  return Object.entries(table).filter(([k, t]) => !(k in object) || !fits(object[k], t)).map(([k]) => `${k}: ${JSON.stringify(object[k])}`);
}

/** The files whose objects publishedObjects checks for the original services' field types. */
const isObjectFile = (rel: string) => /^api\/v1\/(card|accessory)\/[^/]+\.json$/.test(rel) && rel !== 'api/v1/card/set_list.json';

/**
 * Every JSON file under api/ that is not the 404 body, each checked against its endpoint's schema;
 * the card and accessory files kept as parsed (`objects`), for publishedObjects.
 */
async function validateSite(out: string): Promise<{ checked: number; failures: string[]; byRoute: Map<string, number>; objects: Map<string, Json> }> {
  const openapi = await fs.readFile(path.join(out, 'api/v1/openapi.json'), 'utf8');
  const checks = responseValidators(openapi);
  const failures: string[] = [];
  const byRoute = new Map<string, number>();
  const objects = new Map<string, Json>();
  const files = await fg('api/v1/**/*.json', { cwd: out });
  for (const rel of files) {
    const endpoint = endpointOfFile(rel);
    if (!endpoint) {
      failures.push(`${rel}: no endpoint declares it`);
      continue;
    }
    byRoute.set(endpoint.route, (byRoute.get(endpoint.route) ?? 0) + 1);
    const validate = checks.get(endpoint)!;
    const json = await readJson(out, rel);
    if (!validate(json)) failures.push(`${rel}: ${JSON.stringify(validate.errors?.slice(0, 2))}`);
    if (isObjectFile(rel)) objects.set(rel, json);
  }
  return { checked: files.length, failures, byRoute, objects };
}

/** A site read and validated once for both of its tests (the schemas, the field types): reading the files costs more than checking them. */
const validated = new Map<string, ReturnType<typeof validateSite>>();
function validatedSite(out: string): ReturnType<typeof validateSite> {
  if (!validated.has(out)) validated.set(out, validateSite(out));
  return validated.get(out)!;
}
// The 4,000 cards it holds go with the file: the worker runs other files after it.
afterAll(() => validated.clear());

function seedFailures({ cards, stubs, accessories, lists }: Awaited<ReturnType<typeof publishedObjects>>): string[] {
  const failures: string[] = [];
  const check = (what: string, object: Json, table: Record<string, string>) => {
    const bad = seedMismatches(object, table);
    if (bad.length) failures.push(`${what}: ${bad.join(', ')}`);
  };
  for (const c of cards) {
    check(`card ${c.ordinal}`, c, SEED.card);
    if (c.skill) check(`card ${c.ordinal} skill`, c.skill, SEED.skill);
    if (c.center_skill) check(`card ${c.ordinal} center_skill`, c.center_skill, SEED.centerSkill);
    check(`card ${c.ordinal} extra_data`, c.extra_data, { release_date: 'integer|null', release_date_is_dirty: 'flag' });
  }
  for (const s of stubs) check(`stub ${s.ordinal}`, s, SEED.stub);
  for (const a of accessories) {
    check(`accessory ${a.id}`, a, SEED.accessory);
    if (a.unit_stub) check(`accessory ${a.id} unit_stub`, a.unit_stub, SEED.stub);
  }
  check('card_list.json counts', lists.cardList.counts, SEED.counts);
  for (const set of lists.setList.sets) check(`set ${set.id}`, set, SEED.set);
  for (const a of lists.accessoryList.accessories) check(`accessory_list.json ${a.id}`, a, SEED.accessoryListEntry);
  check('info', lists.info, SEED.info);
  return failures;
}

/** The site's cards, stubs, accessories and lists; `objects` its card and accessory files as validateSite parsed them. */
async function publishedObjects(out: string, objects: Map<string, Json>) {
  const files = [...objects];
  const cards = files.filter(([rel]) => rel.startsWith('api/v1/card/')).map(([, json]) => json.cards[0]);
  const accessories = files.filter(([rel]) => rel.startsWith('api/v1/accessory/')).map(([, json]) => json.accessories[0]);
  const lists = {
    cardList: await readJson(out, 'api/v1/card_list.json'),
    setList: await readJson(out, 'api/v1/card/set_list.json'),
    accessoryList: await readJson(out, 'api/v1/accessory_list.json'),
    info: await readJson(out, 'api/v1/info.json'),
  };
  return { cards, stubs: lists.cardList.stubs as Json[], accessories, lists };
}

describe('/api/v1/openapi.json', () => {
  let out: string;
  beforeAll(async () => ({ out } = await buildSample()));

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(await readJson(out, 'api/v1/openapi.json'));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('declares every route, with its parameters, its statuses and the error body', async () => {
    const openapi = await readJson(out, 'api/v1/openapi.json');
    expect(openapi.openapi).toBe('3.1.0');
    for (const endpoint of allEndpoints()) {
      const operation = openapi.paths[endpoint.route]?.[endpoint.method];
      expect(operation, endpoint.route).toBeDefined();
      const names = (operation.parameters ?? []).map((p: Json) => `${p.in}:${p.name}`);
      expect(names).toEqual([...endpoint.parameters.map((p) => `path:${p.name}`), ...endpoint.query.map((q) => `query:${q}`)]);
      expect(Object.keys(operation.responses).sort()).toEqual(['200', ...endpoint.errors.map(String)].sort());
      for (const status of endpoint.errors) {
        expect(operation.responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
    for (const route of ['/api/v1/card/{ordinals}.json', '/api/v1/card_t/{ids}', '/api/v1/list/event_t', '/api/v1/happening/{time}', '/api/v1/read_tl']) {
      expect(Object.keys(openapi.paths)).toContain(route);
    }
  });
});

describe('every published file against its schema', () => {
  it('holds for the sample: each file validates against the schema its endpoint publishes', async () => {
    const { out } = await buildSample();
    const { checked, failures, byRoute } = await validatedSite(out);
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(140);
    for (const route of ['/api/v1/card/{ordinals}.json', '/api/v1/pair/{pair_id}.json', '/api/v1/pack/card_t/{block}.json', '/api/v1/pack/event_t/{block}.json', '/api/v1/pack/removable_skill_t/{block}.json']) {
      expect(byRoute.get(route), route).toBeGreaterThan(0);
    }
  });

  it('catches a file that breaks its schema (a null title_en, an unknown key)', async () => {
    const { out } = await buildSample();
    const copy = path.join(await tempDir(), 'public');
    fs.cpSync(out, copy, { recursive: true, dereference: true }); // the site, not the link to it (else the edit lands in the shared sample)
    const card = await readJson(copy, 'api/v1/card/1.json');
    card.cards[0].title_en = null;
    fs.writeFileSync(path.join(copy, 'api/v1/card/1.json'), JSON.stringify(card));
    fs.writeFileSync(path.join(copy, 'api/v1/info.json'), JSON.stringify({ ...(await readJson(copy, 'api/v1/info.json')), extra_key: 1 }));
    const { failures } = await validateSite(copy);
    expect(failures.map((f) => f.split(':')[0]).sort()).toEqual(['api/v1/card/1.json', 'api/v1/info.json']);
    fs.rmSync(path.dirname(copy), { recursive: true, force: true });
  });

  it('holds for the sample: cards, stubs and accessories keep the original services\' field types', async () => {
    const { out } = await buildSample();
    const published = await publishedObjects(out, (await validatedSite(out)).objects);
    expect(seedFailures(published)).toEqual([]);
    const { cards } = published;
    expect(cards.length).toBeGreaterThan(30);
  });

  describe('a generated 4,000-card export', () => {
    let out: string;
    beforeAll(async () => {
      ({ out } = await bigSite());
    }, 300_000);

    it('publishes only files that validate against their schemas', async () => {
      const { checked, failures } = await validatedSite(out);
      expect(failures.slice(0, 5)).toEqual([]);
      expect(checked).toBeGreaterThan(8000);
    });

    it('keeps the original services\' field types on every card, stub and accessory', async () => {
      const published = await publishedObjects(out, (await validatedSite(out)).objects);
      expect(published.cards).toHaveLength(published.stubs.length);
      expect(seedFailures(published).slice(0, 5)).toEqual([]);
    });
  });
});

describe('generated docs (docs/api.md, docs/search.md)', () => {
  it.each(GENERATED_DOCS.map((d) => [path.basename(d.file), d] as const))('%s is the one generated from the declarations (npm run docs writes it)', (_name, { file, marker, generate }) => {
    const doc = fs.readFileSync(file, 'utf8');
    const section = new RegExp(`<!-- ${marker}:begin -->\\n([\\s\\S]*?)<!-- ${marker}:end -->`).exec(doc)?.[1];
    expect(section).toBe(generate());
  });

  it.each(GENERATED_FILES.map((f) => [path.basename(f.file), f] as const))('%s is the one generated from the declarations (npm run docs writes it)', (_name, { file, generate }) => {
    const current = fs.readFileSync(file, 'utf8');
    expect(current).toBe(generate(current));
  });
});
