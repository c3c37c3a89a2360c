package lockstep.nes.app;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import lockstep.nes.desktop.netplay.NetplayLaunch;
import lockstep.nes.netplay.NetplayPeer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lockstep netplay host ROM}: waits for a joiner on a UDP port, then plays as player 1. */
@Command(name = "host", mixinStandardHelpOptions = true,
        description = {"Wait for a joiner on a UDP port, then play as player 1 (controller port 1). The host's "
                + "--delay and --window hold for both peers.",
            "Exit 0: done, no desync; 1: a desync was found; 2: bad input; 4: the network or the peer."},
        footerHeading = "%nExamples:%n",
        footer = {"  lockstep netplay host game.nes", "  lockstep netplay host game.nes --port 7845 --delay 3"})
public final class NetplayHostCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "ROM", description = "iNES / NES 2.0 file, or builtin:demo")
    Path rom;

    @Mixin
    NetplayOptions common = new NetplayOptions();

    @Option(names = "--port", paramLabel = "P", description = "UDP port to listen on (default: ${DEFAULT-VALUE}; 0: any free port)")
    int port = 7845;

    @Option(names = "--delay", paramLabel = "N|auto", description = "input delay in frames: a press acts N frames later; "
            + "auto: half the round trip measured at the handshake, in frames rounded up, 1 to W-1 (default: ${DEFAULT-VALUE})")
    String delay = "auto";

    @Option(names = "--window", paramLabel = "W", description = "frames an engine may run ahead of the peer's last input, predicting it (default: ${DEFAULT-VALUE})")
    int window = 8;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535) {
            throw new BadInput("--port " + port + " is out of range (0-65535)");
        }
        int d;
        try {
            d = NetplayLaunch.parseDelay(delay);
        } catch (IllegalArgumentException e) {
            throw new BadInput(e.getMessage());
        }
        if (window < 1 || window > 30) {
            throw new BadInput("--window " + window + " is out of range (1-30)");
        }
        return common.run("host", rom, 0, (cart, o) -> {
            o.delay = d;
            o.window = window;
            NetplayPeer p = NetplayPeer.host(cart, port, o);
            System.out.println("netplay host: listening on UDP port " + p.port());
            System.out.flush();
            return p;
        });
    }
}
