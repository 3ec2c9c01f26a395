// axe-core as the accessibility tests run it (AX-01, AX-06): the WCAG 2.0/2.1 A and AA rules,
// each violation as one line naming the rule, the element and why.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * GraphiQL's own tab strip: each tab is an <li role="tab"> holding its tab button (and close
 * button), which axe flags as nested-interactive. The markup is built inside GraphiQL's Tabs
 * component with no prop to change it; only a fork or a rewrite of its DOM would fix it. This one
 * rule on that one element is let through, and nothing else.
 */
function known(rule: string, html: string): boolean {
  return rule === 'nested-interactive' && html.includes('graphiql-tab');
}

/**
 * Every violation on the page as it is now (or only inside `include`, a selector, where the rest
 * was analysed already: the Explorer's editors make a whole-page run slow), as
 * `where: rule target (why)`, at most five per rule.
 */
export async function axeViolations(page: Page, where: string, include?: string): Promise<string[]> {
  // Only violations come back: axe skips collecting the passing and incomplete nodes, the most of its work on a large page.
  const builder = new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .options({ resultTypes: ['violations'] });
  const results = await (include === undefined ? builder : builder.include(include)).analyze();
  return results.violations.flatMap((violation) =>
    violation.nodes
      .filter((node) => !known(violation.id, node.html))
      .slice(0, 5)
      .map(
        (node) =>
          `${where}: ${violation.id} ${node.target.join(' ')} (${node.failureSummary?.split('\n').slice(1).join(' ') ?? violation.help})`,
      ),
  );
}
