package lockstep.nes.farm.lock;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManagerFactory;

/** A TLS client that trusts exactly the CA certificates of one PEM file (a lock server's {@code cacert}). */
final class CaCertificates {
    private CaCertificates() {
    }

    /**
     * A socket factory whose connections accept only servers whose chain ends at a certificate of
     * {@code caFile}.
     *
     * @param what the start of the error message (the masked URL), e.g. {@code bad Redis URL '…'}
     * @throws LockException one line naming the file, when it cannot be read or holds no certificate
     */
    static SSLSocketFactory socketFactory(Path caFile, String what) throws LockException {
        if (!Files.isReadable(caFile)) {
            throw new LockException(what + ": cannot read CA file " + caFile);
        }
        Collection<? extends Certificate> certs;
        try (InputStream in = Files.newInputStream(caFile)) {
            certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
        } catch (IOException e) {
            throw new LockException(what + ": cannot read CA file " + caFile + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new LockException(what + ": CA file " + caFile + " is not a PEM certificate", e);
        }
        if (certs.isEmpty()) {
            throw new LockException(what + ": CA file " + caFile + " is not a PEM certificate");
        }
        try {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int i = 0;
            for (Certificate c : certs) {
                trusted.setCertificateEntry("ca-" + i++, c);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return ctx.getSocketFactory();
        } catch (GeneralSecurityException | IOException e) {
            throw new LockException(what + ": CA file " + caFile + " cannot be trusted: " + e.getMessage(), e);
        }
    }
}
