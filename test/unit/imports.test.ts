/**
 * The import graph (generator/build/docs/importGraph.ts): the wings keep their rules, the build's
 * stages import no later stage, no module imports itself round a cycle, and docs/architecture.md
 * draws the graph as it is.
 */
import { describe, expect, it } from 'vitest';
import { findCycle, importGraph, stageViolations, unitOf, wingViolations, type ImportGraph } from '../../generator/build/docs/importGraph.ts';

const graph = importGraph();
const withImport = (from: string, to: string): ImportGraph => new Map([...graph, [from, [...(graph.get(from) ?? []), to]]]);

describe('the import graph', () => {
  it('reads every module of the wings, with its imports', () => {
    const units = new Set([...graph.keys()].map(unitOf));
    for (const unit of ['build/build', 'build/render', 'contract', 'runtime/edge', 'web/page', 'web/search', 'hosts/netlify/runtime', 'hosts/cloudflare/build']) expect(units).toContain(unit);
    expect(graph.get('generator/hosts/cloudflare/runtime/pagesWorker.ts')).toContain('generator/runtime/edge/handler.ts');
    expect(graph.get('generator/hosts/netlify/runtime/edge-functions/api.ts')).toContain('generator/hosts/netlify/runtime/netlifyChain.ts');
    expect(graph.get('generator/web/page/app.js')).toContain('generator/web/search/query.js');
    // Type imports too (a bundler drops them): a cycle of types is a cycle a reader walks round.
    expect(graph.get('generator/build/model/cards.ts')).toContain('generator/build/findings.ts');
    expect(graph.get('generator/runtime/edge/objects.ts')).toContain('generator/runtime/edge/kept.ts');
  });

  it('keeps the wings apart: the runtime imports no build module, the build no runtime module, the contract no wing but the web\'s shared modules', () => {
    expect(wingViolations(graph)).toEqual([]);
    // The rules catch what they forbid.
    expect(wingViolations(withImport('generator/runtime/edge/handler.ts', 'generator/build/errors.ts'))).toEqual(['generator/runtime/edge/handler.ts -> generator/build/errors.ts']);
    expect(wingViolations(withImport('generator/build/build.ts', 'generator/runtime/edge/handler.ts'))).toHaveLength(1);
    expect(wingViolations(withImport('generator/contract/endpoints.ts', 'generator/runtime/edge/http.ts'))).toHaveLength(1);
    expect(wingViolations(withImport('generator/web/search/query.js', 'generator/contract/limits.ts'))).toHaveLength(1);
    expect(wingViolations(withImport('generator/build/render/page.ts', 'generator/web/search/words.js'))).toEqual([]);
    // The contract imports no wing that runs somewhere: the search language it reads is the web's, shared.
    expect(wingViolations(withImport('generator/contract/endpoints.ts', 'generator/web/page/app.js'))).toHaveLength(1);
    expect(wingViolations(withImport('generator/web/page/app.js', 'generator/runtime/edge/http.ts'))).toHaveLength(1);
    expect([...graph].filter(([from]) => from.startsWith('generator/contract/')).flatMap(([, to]) => to).filter((to) => to.startsWith('generator/runtime/'))).toEqual([]);
    expect(wingViolations(new Map([...graph, ['generator/stray.ts', []]]))).toEqual(['generator/stray.ts: in no wing']);
  });

  it('keeps the wings apart inside a host\'s folder: its runtime/ imports no build module, its build/ no runtime module', () => {
    const worker = 'generator/hosts/cloudflare/runtime/pagesWorker.ts';
    const bundle = 'generator/hosts/cloudflare/build/workerBundle.ts';
    expect(wingViolations(withImport(worker, bundle))).toEqual([`${worker} -> ${bundle}`]);
    expect(wingViolations(withImport(worker, 'generator/build/errors.ts'))).toHaveLength(1);
    expect(wingViolations(withImport(bundle, worker))).toEqual([`${bundle} -> ${worker}`]);
    expect(wingViolations(withImport('generator/hosts/all/build/hostRules.ts', 'generator/hosts/node/runtime/diskSite.ts'))).toHaveLength(1);
    expect(wingViolations(withImport('generator/runtime/edge/handler.ts', 'generator/hosts/all/build/hostLimits.ts'))).toHaveLength(1);
    // Across hosts and wings as elsewhere: a host's runtime reads the edge's, its build the build's.
    expect(wingViolations(withImport('generator/hosts/node/runtime/server.ts', 'generator/hosts/netlify/runtime/netlifyChain.ts'))).toEqual([]);
    expect(wingViolations(withImport(bundle, 'generator/build/errors.ts'))).toEqual([]);
    // A file of a host's folder outside its wing subfolders belongs to no wing.
    for (const stray of ['generator/hosts/cloudflare/worker.ts', 'generator/hosts/netlify/edge-functions/api.ts', 'generator/hosts/rules.ts']) {
      expect(wingViolations(new Map([...graph, [stray, []]]))).toEqual([`${stray}: in no wing`]);
    }
  });

  it('keeps the build\'s flow one way: a stage imports no later stage (types included)', () => {
    expect(stageViolations(graph)).toEqual([]);
    // The rule catches what it forbids: the read stage naming the file set of the render stage, the model a derived file's type.
    const upward = withImport('generator/build/input/previousSite.ts', 'generator/build/render/files.ts');
    expect(stageViolations(upward)).toEqual(['generator/build/input/previousSite.ts -> generator/build/render/files.ts']);
    expect(stageViolations(withImport('generator/build/model/cards.ts', 'generator/build/derive/bulk.ts'))).toHaveLength(1);
    expect(stageViolations(withImport('generator/build/render/cards.ts', 'generator/build/publish/staging.ts'))).toHaveLength(1);
    // Earlier stages, the same stage's fellows and what every stage shares are allowed.
    expect(stageViolations(withImport('generator/build/changes/history.ts', 'generator/build/derive/bulk.ts'))).toEqual([]);
    expect(stageViolations(withImport('generator/build/derive/bulk.ts', 'generator/build/model/cards.ts'))).toEqual([]);
    expect(stageViolations(withImport('generator/build/input/previousSite.ts', 'generator/build/siteFiles.ts'))).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(findCycle(graph)).toBeNull();
    expect(findCycle(withImport('generator/contract/limits.ts', 'generator/contract/endpoints.ts'))).toEqual(
      expect.arrayContaining(['generator/contract/limits.ts', 'generator/contract/endpoints.ts']),
    );
  });
});
