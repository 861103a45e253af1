package dev.distlock.aop;

import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;

/**
 * The variables ({@code #name}) and beans ({@code @name}) a parsed expression refers to, found by walking
 * its syntax tree, so that startup can check them against the method's parameters and the bean factory.
 *
 * @param variables variable (and function) names without {@code #}, including {@code root} and {@code this}
 * @param beans bean names without {@code @}
 */
record ExpressionReferences(Set<String> variables, Set<String> beans) {

    static ExpressionReferences of(Expression expression) {
        ExpressionReferences references = new ExpressionReferences(new LinkedHashSet<>(), new LinkedHashSet<>());
        if (expression instanceof SpelExpression spel) {
            references.collect(spel.getAST());
        }
        return references;
    }

    private void collect(SpelNode node) {
        if (node instanceof VariableReference) {
            variables.add(node.toStringAST().substring(1));
        } else if (node instanceof FunctionReference) {
            // #name(...): no functions are registered, so it can only be a mistake for a parameter
            String call = node.toStringAST();
            variables.add(call.substring(1, call.indexOf('(')));
        } else if (node instanceof BeanReference bean) {
            beans.add(bean.getName());
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            collect(node.getChild(i));
        }
    }
}
