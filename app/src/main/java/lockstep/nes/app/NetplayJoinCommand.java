package lockstep.nes.app;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import lockstep.nes.netplay.NetplayPeer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code lockstep netplay join HOST:PORT ROM}: plays as player 2 with a host. */
@Command(name = "join", mixinStandardHelpOptions = true,
        description = {"Join a host and play as player 2 (controller port 2), with the host's input delay and window.",
            "Exit 0: done, no desync; 1: a desync was found; 2: bad input; 4: the network or the peer."},
        footerHeading = "%nExamples:%n",
        footer = {"  lockstep netplay join 192.168.1.20:7845 game.nes", "  lockstep netplay join localhost:7845 game.nes --movie p2.fm2"})
public final class NetplayJoinCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "HOST:PORT", description = "the host's address and UDP port")
    String address;

    @Parameters(index = "1", paramLabel = "ROM", description = "iNES / NES 2.0 file, or builtin:demo (the host's ROM)")
    Path rom;

    @Mixin
    NetplayOptions common = new NetplayOptions();

    @Override
    public Integer call() throws Exception {
        InetSocketAddress host = parse(address);
        return common.run("join", rom, 1, (cart, o) -> NetplayPeer.join(cart, host, o));
    }

    /** HOST:PORT (a name, an IPv4 address or [an IPv6 one]) as a resolved address. */
    static InetSocketAddress parse(String address) throws BadInput {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new BadInput("'" + address + "' is not HOST:PORT");
        }
        String name = address.substring(0, colon);
        if (name.startsWith("[") && name.endsWith("]")) {
            name = name.substring(1, name.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new BadInput("'" + address + "': the port is not a number");
        }
        if (port < 1 || port > 65535) {
            throw new BadInput("'" + address + "': the port is out of range (1-65535)");
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(name), port);
        } catch (UnknownHostException e) {
            throw new BadInput("'" + address + "': unknown host " + name);
        }
    }
}
