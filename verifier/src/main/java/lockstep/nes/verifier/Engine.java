package lockstep.nes.verifier;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.core.snapshot.Snapshots;

/** One engine of a lockstep pair: a console with its digest and snapshot machinery. */
final class Engine {
    final String name;
    final Console console;
    final CycleDigest digest;
    final Snapshots snapshots;

    Engine(String name, Cartridge cart) throws RomFormatException {
        this.name = name;
        this.console = Console.create(cart);
        this.digest = new CycleDigest(console);
        this.snapshots = new Snapshots(console);
    }
}
