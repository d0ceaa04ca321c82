/**
 * The import graph (generator/build/docs/importGraph.ts): the wings keep their rules, no
 * module imports itself round a cycle, and docs/architecture.md draws the graph as it is.
 */
import { describe, expect, it } from 'vitest';
import { findCycle, importGraph, unitOf, wingViolations, type ImportGraph } from '../../generator/build/docs/importGraph.ts';

const graph = importGraph();
const withImport = (from: string, to: string): ImportGraph => new Map([...graph, [from, [...(graph.get(from) ?? []), to]]]);

describe('the import graph', () => {
  it('reads every module of the wings, with its imports', () => {
    const units = new Set([...graph.keys()].map(unitOf));
    for (const unit of ['build/build', 'build/render', 'contract', 'runtime/edge', 'web/page', 'web/search', 'netlify/edge-functions']) expect(units).toContain(unit);
    expect(graph.get('generator/runtime/edge/pagesWorker.ts')).toContain('generator/runtime/edge/handler.ts');
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

  it('has no import cycle', () => {
    expect(findCycle(graph)).toBeNull();
    expect(findCycle(withImport('generator/contract/limits.ts', 'generator/contract/endpoints.ts'))).toEqual(
      expect.arrayContaining(['generator/contract/limits.ts', 'generator/contract/endpoints.ts']),
    );
  });
});
