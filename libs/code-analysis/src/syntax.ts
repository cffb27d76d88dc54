/** Small helpers over tree-sitter syntax trees, shared by the language analysers. */
import type { SyntaxNode } from './grammars';

/** 1-based line of a node's start. */
export const lineOf = (node: SyntaxNode): number => node.startPosition.row + 1;

/**
 * Visits every node under `root` in document order, without recursion (a deeply nested file cannot
 * overflow the stack). `visit` returns false to skip a node's children.
 */
export function walk(root: SyntaxNode, visit: (node: SyntaxNode) => boolean | void): void {
  const cursor = root.walk();
  try {
    for (;;) {
      const descend = visit(cursor.currentNode) !== false;
      if (descend && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent() || cursor.currentNode.id === root.id) return;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** The first node under `root` (itself included) that is an ERROR or a MISSING node, if any. */
export function firstSyntaxError(root: SyntaxNode): SyntaxNode | null {
  if (!root.hasError) return null;
  let found: SyntaxNode | null = null;
  walk(root, (node) => {
    if (found) return false;
    if (node.isError || node.isMissing) {
      found = node;
      return false;
    }
    return node.hasError;
  });
  return found;
}
