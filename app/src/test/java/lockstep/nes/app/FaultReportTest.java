package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fault is told the same way in every mode: in its --inject form with a register value in hex
 * ($42, as it is typed and as the differing fields show it), fired at its own cycle.
 */
class FaultReportTest {
    @TempDir
    Path dir;

    private static final String FAULT = "reg@100000:B:cpu.a=$42";

    @Test
    void everyModeReportsTheFaultInItsHexFormAtItsOwnCycle() throws Exception {
        for (String mode : new String[] {"same-thread", "threads", "processes"}) {
            Path report = dir.resolve(mode + ".json");
            // A long stall limit: on a loaded machine a host JVM's start is not mistaken for a stall.
            Cli.Result r = Cli.run("verify", "--mode", mode, "--frames", "5", "--inject", FAULT, "--stall-ms", "60000",
                    "--report", report.toString());
            assertEquals(1, r.exit(), mode + ": " + r.out() + r.err());
            JsonNode d = new ObjectMapper().readTree(report.toFile()).get("divergences").get(0);
            assertEquals(100000, d.get("cycle").asLong(), mode);
            assertEquals(FAULT, d.get("injectedFaults").get(0).asText(), mode);
            if (mode.equals("processes")) {
                // The host tells the fault at the end of the stretch it fired in; the line names its cycle.
                assertTrue(r.err().contains("verify: host B: injected fault " + FAULT + " fired at cycle 100000"), r.err());
            }
        }
    }
}
