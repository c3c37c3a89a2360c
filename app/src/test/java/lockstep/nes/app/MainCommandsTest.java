package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The command line builds the command it runs alone, and every command for help or a mistyped name. */
class MainCommandsTest {
    @Test
    void aNamedCommandIsBuiltAlone() {
        assertEquals(List.of("bench"), List.copyOf(Main.commandLine("bench").getSubcommands().keySet()));
        assertEquals(List.of("farm"), List.copyOf(Main.commandLine("farm").getSubcommands().keySet()));
    }

    @Test
    void noNameOrAnUnknownOneBuildsEveryCommandInHelpOrder() {
        List<String> all = List.copyOf(Main.commandNames());
        assertEquals(14, all.size(), all.toString());
        assertEquals("nestest", all.get(0));
        assertEquals(all, List.copyOf(Main.commandLine(null).getSubcommands().keySet()));
        assertEquals(all, List.copyOf(Main.commandLine("verfy").getSubcommands().keySet()));
        assertEquals(all, List.copyOf(Main.commandLine("--help").getSubcommands().keySet()));
    }

    @Test
    void aCommandBuiltAloneStillNamesItselfUnderLockstep() {
        assertEquals("lockstep canary", Main.commandLine("canary").getSubcommands().get("canary")
                .getCommandSpec().qualifiedName());
    }
}
