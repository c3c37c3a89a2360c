package lockstep.nes.app;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code lockstep netplay host|join}: two players on two machines, with rollback. */
@Command(name = "netplay", mixinStandardHelpOptions = true,
        description = {"Play one ROM on two machines over UDP, each predicting the other's input and rolling back "
                + "when a prediction was wrong; every confirmed frame's state digest is compared, and a desync is "
                + "located to its cycle and field.",
            "Exit 0: done, no desync; 1: a desync was found (and play resumed); 2: bad input; "
                + "4: the network or the peer (refused handshake, no answer, the peer vanished, the port is taken)."},
        subcommands = {NetplayHostCommand.class, NetplayJoinCommand.class},
        footerHeading = "%nExamples:%n",
        footer = {"  lockstep netplay host game.nes --port 7845", "  lockstep netplay join 192.168.1.20:7845 game.nes"})
public final class NetplayCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        return Main.usageError(spec);
    }
}
