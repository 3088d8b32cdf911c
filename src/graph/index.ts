// `hostwire graph`: the cluster network from inventory, state store and facts (model.ts), drawn as
// SVG (svg.ts), Graphviz dot or text (text.ts).
export { buildGraph, type GraphModel, type GraphNode, type GraphLink, type GraphInput, type ClusterKind } from './model.js';
export { renderSvg } from './svg.js';
export { renderDot, renderText, headline } from './text.js';
