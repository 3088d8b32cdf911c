// Typed handles on nunjucks internals (@types/nunjucks only covers the public API). We use the parser,
// node classes, compiler and runtime to build templates from an AST and to patch Jinja semantics in.
import nunjucks from 'nunjucks';
// @ts-expect-error -- no types for this internal file (typed by NjInternals below)
import njTransformer from 'nunjucks/src/transformer.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
export interface NjNode {
  typename: string;
  lineno: number;
  colno: number;
  fields: string[];
  [field: string]: any;
}
export type NodeClass = new (lineno: number, colno: number, ...fields: any[]) => NjNode;

export interface NjInternals {
  parser: { parse(src: string, extensions?: unknown[], opts?: unknown): NjNode };
  nodes: Record<string, NodeClass & { extend(name: string, props?: unknown): NodeClass }>;
  compiler: { Compiler: any };
  transformer: { transform(ast: NjNode, asyncFilters: string[], name?: string): NjNode };
  runtime: Record<string, any>;
  lib: Record<string, any>;
  installJinjaCompat(): void;
}

export const nj = nunjucks as unknown as NjInternals & typeof nunjucks;

/** nunjucks' index does not re-export the transformer: imported from its file (so a bundle keeps one copy of nunjucks). */
export const transformer = njTransformer as NjInternals['transformer'];
