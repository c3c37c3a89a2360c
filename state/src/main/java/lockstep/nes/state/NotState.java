package lockstep.nes.state;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an instance field of a stateful component that its {@code state} method deliberately
 * does not visit: an output, a cache rebuilt from described state, or bookkeeping that is empty
 * between cycles. The reason says which; the description-coverage test reads it, and every other
 * mutable field must be described.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.FIELD)
public @interface NotState {
    /** Why the field is not part of the machine's state. */
    String value();
}
