package lockstep.nes.verifier;

import lockstep.nes.core.Console;

/** The input stream both engines are fed: what to do to an engine before frame {@code n}. */
public interface InputSource {
    /** Applies frame {@code n}'s input (buttons, soft reset, power) to {@code console}. */
    void apply(int frame, Console console);

    /** Frames of input available (Integer.MAX_VALUE when unbounded). */
    default int length() {
        return Integer.MAX_VALUE;
    }

    /** No buttons, no commands. */
    InputSource NONE = (frame, console) -> { };
}
