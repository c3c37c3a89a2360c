package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which mode {@code lockstep verify} runs in when none is given, and that its summary line says so. */
class VerifyModeTest {
    @Test
    void threadsModeWhereEachEngineHasACoreOfItsOwn() {
        assertEquals("same-thread", VerifyCommand.defaultMode(1));
        assertEquals("same-thread", VerifyCommand.defaultMode(2));
        assertEquals("threads", VerifyCommand.defaultMode(3));
        assertEquals("threads", VerifyCommand.defaultMode(16));
    }

    @Test
    void theSummaryLineSaysWhichModeRan() {
        Cli.Result r = Cli.run("verify", "--frames", "2");
        assertEquals(0, r.exit(), r.err());
        String expected = VerifyCommand.defaultMode(Runtime.getRuntime().availableProcessors());
        assertTrue(r.out().strip().endsWith(" mode=" + expected), r.out());
        Cli.Result t = Cli.run("verify", "--frames", "2", "--mode", "threads");
        assertEquals(0, t.exit(), t.err());
        assertTrue(t.out().strip().endsWith(" mode=threads"), t.out());
    }
}
