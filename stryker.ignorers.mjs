// Mutants Stryker should not make in the money and limits path: text that no rule depends on.
// Tool titles and descriptions are checked against the docs elsewhere, log lines are read by
// people, and a mutant of either would only measure whether a test quotes them.
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

const TEXT_PROPERTIES = new Set(['title', 'description']);
const LOG_METHODS = new Set(['debug', 'info', 'warn', 'error']);

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'operation-text', {
    shouldIgnore(path) {
      if (
        path.isObjectProperty() &&
        !path.node.computed &&
        path.node.key.type === 'Identifier' &&
        TEXT_PROPERTIES.has(path.node.key.name)
      ) {
        return 'Operation title or description: documentation text, not behaviour';
      }
      // The call, and the statement that is only that call (which Stryker would empty).
      const call = path.isExpressionStatement() ? path.get('expression') : path;
      if (
        call.isCallExpression() &&
        call.node.callee.type === 'MemberExpression' &&
        call.node.callee.property.type === 'Identifier' &&
        LOG_METHODS.has(call.node.callee.property.name) &&
        call.node.callee.object.type !== 'Identifier'
      ) {
        return 'Log line: read by people, not by the gateway';
      }
      return undefined;
    },
  }),
];
