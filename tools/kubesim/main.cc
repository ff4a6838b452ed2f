// The kubesim command line. `run`, `merge` and `explore` are the scenarios command line
// (kubesim/tools/cli.h), which programs that link kubesim reuse.
#include <cstring>
#include <iostream>

#include <CLI/CLI.hpp>

#include "kubesim/live/live.h"
#include "kubesim/tools/cli.h"
#include "tools/kubesim/serve.h"

int main(int argc, char** argv) {
  if (argc >= 2 && (std::strcmp(argv[1], "run") == 0 || std::strcmp(argv[1], "merge") == 0 ||
                    std::strcmp(argv[1], "explore") == 0)) {
    kubesim::tools::LiveHook live;
    live.check = [](const kubesim::scenarios::Scenario& scenario, std::vector<std::string>& notes) {
      auto checked = kubesim::live::check_live(scenario);
      for (auto& note : checked.notes) notes.push_back(std::move(note));
      return checked.errors;
    };
    live.run = [](const std::string& output, std::ostream& log) {
      kubesim::live::LiveOptions options;
      options.output = output;
      options.log = &log;
      return kubesim::live::live_run_function(options);
    };
    return kubesim::tools::run_main(argc, argv, kubesim::scenarios::Registry::with_builtins(), live);
  }
  CLI::App app{"kubesim: a deterministic simulator for Kubernetes controllers"};
  app.require_subcommand(1);
  // Listed for --help; main() hands them to the scenarios command line before parsing.
  app.add_subcommand("run", "run scenario files over many seeds (kubesim run --help)")->allow_extras();
  app.add_subcommand("merge", "merge the --results files of a sharded run")->allow_extras();
  app.add_subcommand("explore", "search a scenario for failing runs and shrink one (kubesim explore --help)")
      ->allow_extras();

  kubesim::tools::ServeOptions serve;
  CLI::App* serve_cmd = app.add_subcommand("serve", "serve a fake API server over HTTP(S) for any Kubernetes client");
  serve_cmd->add_option("--listen", serve.listen, "host:port to listen on (port 0: any free port)");
  serve_cmd->add_option("--kubeconfig-out", serve.kubeconfig_out, "write a kubeconfig for this server here");
  serve_cmd->add_flag("--insecure", serve.insecure, "plain HTTP (loopback addresses only)");
  serve_cmd->add_flag("--force-insecure", serve.force_insecure, "allow --insecure on a non-loopback address");
  serve_cmd->add_option("--tls-cert-file", serve.tls_cert_file,
                        "serving certificate chain (PEM), which the kubeconfig trusts unless "
                        "--client-ca-file is given; default: generated");
  serve_cmd->add_option("--tls-private-key-file", serve.tls_key_file, "serving key (PEM)");
  serve_cmd->add_option("--client-ca-file", serve.client_ca_file, "CA whose client certificates authenticate (CN=user, O=groups)");
  serve_cmd->add_option("--cert-dir", serve.cert_dir, "write the generated CA, serving and admin client certificates here");
  serve_cmd->add_option("--token-auth-file,--token-file", serve.token_file, "bearer tokens: token,user,uid,\"group1,group2\" per line");
  serve_cmd->add_flag("--anonymous-auth", serve.anonymous, "serve requests without credentials as system:anonymous");
  serve_cmd->add_option("--load", serve.load, "create the objects of these YAML/JSON manifests (files or directories) at start");
  serve_cmd->add_option("--compaction", serve.compaction, "history compaction interval (e.g. 5m, 30s)");
  serve_cmd->add_option("--idle-timeout", serve.idle_timeout,
                        "close keep-alive connections idle this long (kube-apiserver: 90s)");
  serve_cmd->add_option("--read-header-timeout", serve.read_header_timeout,
                        "close connections whose request header takes longer (kube-apiserver: 32s)");
  serve_cmd->add_option("--version-string", serve.git_version, "gitVersion /version reports (kubectl's dispatcher picks its binary by it)");
  serve_cmd->add_option("-v,--v", serve.verbosity, "log verbosity; 2 logs every request");

  CLI11_PARSE(app, argc, argv);

  if (*serve_cmd) return kubesim::tools::run_serve(serve, std::cout, std::cerr);
  return 0;
}
