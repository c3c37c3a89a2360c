package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** verify --help says what each check compares, and does not claim the default compares every cycle. */
class VerifyHelpTest {
    @Test
    void eachCheckSaysWhatItCompares() {
        Cli.Result r = Cli.run("verify", "--help");
        assertEquals(0, r.exit(), r.err());
        String help = r.out().replaceAll("\\s+", " ");
        assertTrue(help.contains("--check chained (default): each engine folds every bus access"), help);
        assertTrue(help.contains("the whole states are compared at each frame's end")
                || help.contains("chains and whole states are compared at each frame's end"), help);
        assertTrue(help.contains("--check every-cycle: the whole states are compared after every CPU cycle"), help);
        String first = help.substring(0, help.indexOf("--check chained"));
        assertFalse(first.contains("after every CPU cycle"), "the summary claims every cycle: " + first);
    }
}
