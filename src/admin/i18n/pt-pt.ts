// Longer than 300 lines by nature: the Portuguese twin of en.ts, key for key (its type makes a missing key fail).
import type { Translations } from "./en"

/**
 * The admin in European Portuguese, as a shop owner in Portugal reads it. Typed by the English texts: a key missing
 * here fails the build instead of showing English on a Portuguese page.
 */
export const ptPT: Translations = {
  refpay: {
    common: {
      loading: "A carregar…",
      orderNumber: "Encomenda #{{number}}",
      routes: { medusaRoute: "rota do Medusa", medusa: "Medusa" },
      pager: { of: "de", results: "resultados", pages: "páginas", prev: "Anterior", next: "Seguinte" },
    },
    time: {
      future: "daqui a {{value}} {{unit}}",
      past: "há {{value}} {{unit}}",
      units: { s: "s", min: "min", h: "h", days: "dias" },
    },
    page: {
      loadError: "Não foi possível carregar as definições REFPAY: {{message}}",
    },
    numbers: {
      heading: "Os seus números REFPAY",
      intro:
        "Quantas referências são pagas e em quanto tempo, o que os lembretes e as renovações recuperaram, e o Medusa face à plataforma, no período escolhido (dias de Lisboa).",
      from: "De",
      to: "Até",
      show: "Mostrar",
      exportCsv: "Descarregar CSV (para o contabilista)",
      exportFailed: "Não foi possível descarregar o CSV: {{message}}",
      loadError: "Não foi possível carregar os números: {{message}}",
      period: "{{from}} a {{to}}",
      conversion: {
        heading: "Conversão das referências emitidas",
        issued: "Emitidas",
        paid: "Pagas",
        waiting: "A aguardar",
        expired: "Expiradas",
        renewed: "Renovadas",
        cancelled: "Canceladas",
        paidShare: "{{share}} pagas",
      },
      chart: {
        heading: "Por dia",
        issued: "Referências emitidas",
        paid: "Pagamentos recebidos",
        bar: "{{day}}: {{issued}} emitidas, {{paid}} pagas",
      },
      timeToPay: {
        heading: "Dias da emissão ao pagamento",
        sameDay: "No próprio dia",
        days: "{{days}} d",
        bar: "{{label}}: {{count}}",
      },
      recovered: {
        heading: "O que o plugin recuperou",
        paid_after_reminder: "Pagas após um lembrete",
        paid_on_renewed_reference: "Pagas numa referência renovada",
        late_payments_refunded: "Pagamentos tardios reembolsados",
        late_payments_recorded: "Pagamentos tardios mantidos",
      },
      reconciliation: {
        heading: "O Medusa face à plataforma",
        day: "Dia",
        medusaCaptured: "Capturado (Medusa)",
        medusaRefunded: "Reembolsado (Medusa)",
        platformApproved: "Aprovado (plataforma)",
        platformRefunded: "Reembolsado (plataforma)",
        order: "Encomenda",
        reference: "Entidade / referência",
        differences: { one: "{{count}} pagamento difere:", other: "{{count}} pagamentos diferem:" },
        agree: "O Medusa e a plataforma estão de acordo em todos os pagamentos do período.",
        noPayments: "Nenhum pagamento neste período.",
      },
    },
    banner: {
      review: "Rever",
      kinds: {
        paid_after_cancellation: {
          one: "{{count}} pagamento após cancelamento (a reembolsar)",
          other: "{{count}} pagamentos após cancelamento (a reembolsar)",
        },
        paid_after_session_deleted: {
          one: "{{count}} pagamento depois de o Medusa apagar o seu registo (a reembolsar)",
          other: "{{count}} pagamentos depois de o Medusa apagar os seus registos (a reembolsar)",
        },
        refund_mismatch: {
          one: "{{count}} total reembolsado diferente do da REFPAY",
          other: "{{count}} totais reembolsados diferentes dos da REFPAY",
        },
        amount_mismatch: { one: "{{count}} montante divergente", other: "{{count}} montantes divergentes" },
        unknown_payment: {
          one: "{{count}} referência desconhecida da REFPAY",
          other: "{{count}} referências desconhecidas da REFPAY",
        },
        platform_error: {
          one: "{{count}} verificação de estado falhada",
          other: "{{count}} verificações de estado falhadas",
        },
        expiring: {
          one: "{{count}} referência a expirar nas próximas 24 h",
          other: "{{count}} referências a expirar nas próximas 24 h",
        },
      },
    },
    connection: {
      environment: { sandbox: "Sandbox", production: "Produção" },
      intro:
        "Pagamentos por referência: o cliente paga uma entidade e uma referência num caixa Multibanco ou na aplicação do banco.",
      sellerAccount: "Conta de vendedor {{account}} ({{providerId}}).",
      account: "Conta {{account}}",
      test: "Testar ligação",
      sandboxNote:
        "Ambiente de testes (sandbox): os pagamentos são simulados e não há movimentos de dinheiro. Para receber pagamentos reais, mude REFPAY_ENVIRONMENT para production, com credenciais de produção.",
      productionNote: "Ambiente de produção: as referências são reais e os clientes pagam com dinheiro real.",
      couldNotRun: "Não foi possível executar o teste de ligação: {{message}}",
      steps: { token: "Token", payments: "API de pagamentos" },
      nextStep: "Próximo passo:",
      platformSaid: "Resposta da plataforma:",
      tested: "Testado em {{when}}, em {{ms}} ms, com um cliente próprio (os pagamentos da loja não foram afetados).",
      /** As frases do teste de ligação (src/api/admin/refpay/connection-test/connection-texts.ts), com as palavras que os valores nomeiam. */
      texts: {
        connected:
          "Ligação estabelecida ({{platform}}): o serviço de tokens {{interface}} emitiu um token e a API de pagamentos aceitou-o.",
        connected_payment_unknown:
          "Ligação estabelecida ({{platform}}): o serviço de tokens {{interface}} emitiu um token e a API de pagamentos aceitou-o (a consulta do estado de um pagamento inventado respondeu 404 PAYMENT_NOT_FOUND, como esperado).",
        settings_incomplete: "As definições da REFPAY estão incompletas: {{detail}}",
        connect_timeout: "{{service}} em {{origin}} não respondeu à ligação em {{ms}} ms ({{code}}).",
        answer_timeout: "{{service}} em {{origin}} aceitou a ligação, mas não respondeu em {{ms}} ms ({{code}}).",
        tls_failed:
          "A ligação segura (TLS) a {{origin}} falhou ({{code}}): o certificado não é de confiança ou não corresponde ao nome do servidor.",
        host_not_found:
          "O servidor de {{origin}} não foi encontrado ({{code}}): o nome não é resolvido a partir deste servidor.",
        nothing_listening: "{{service}} em {{origin}} está inacessível ({{code}}: nada está à escuta nesse endereço).",
        unreachable: "{{service}} em {{origin}} está inacessível ({{code}}).",
        connection_failed: "A ligação a {{origin}} falhou ({{code}}).",
        not_the_platform_body:
          "{{service}} em {{origin}} respondeu {{status}}com um conteúdo que não é da plataforma ({{code}}).",
        credentials_refused:
          "O serviço de tokens recusou as credenciais da loja ({{reply}}). Não foi emitido nenhum token.",
        scope_not_granted:
          "O serviço de tokens reconhece as credenciais, mas não concede o âmbito (scope) pedido ({{reply}}).",
        token_request_refused: "O serviço de tokens recusou o pedido de token ({{reply}}).",
        scope_not_covering_payments:
          "Foi emitido um token, mas o seu âmbito não abrange pagamentos: a API de pagamentos respondeu {{reply}}.",
        token_rejected_by_payments:
          "Foi emitido um token, mas a API de pagamentos recusou-o ({{reply}}), mesmo acabado de emitir.",
        not_found_not_platform:
          "O servidor de pagamentos respondeu 404 sem o código PAYMENT_NOT_FOUND da plataforma ({{code}}).",
        server_error: "{{service}} respondeu com um erro de servidor ({{reply}}).",
        request_refused: "{{service}} recusou o pedido ({{reply}}).",
        could_not_test: "{{service}}: não foi possível testar ({{name}}).",
        fix_setting: "Corrija a definição indicada e reinicie o Medusa.",
        check_reachable_or_connect_timeout:
          "Verifique se o servidor é acessível a partir deste (firewall, proxy, VPN) ou aumente REFPAY_CONNECT_TIMEOUT_MS.",
        retry_or_request_timeout:
          "A plataforma pode estar lenta neste momento: tente novamente ou aumente REFPAY_REQUEST_TIMEOUT_MS.",
        check_host_and_certificate:
          "Verifique o nome do servidor no URL; um certificado assinado por uma autoridade privada requer NODE_EXTRA_CA_CERTS neste servidor.",
        check_host_and_dns: "Verifique o nome do servidor na definição do URL e o DNS deste servidor.",
        start_local_sandbox:
          "Verifique as definições de URL; para a sandbox local, inicie-a (npx refpay-sandbox) na porta configurada.",
        check_urls_and_firewall:
          "Verifique as definições de URL e se este servidor se pode ligar à plataforma (firewall, proxy).",
        check_urls_and_network: "Verifique as definições de URL e a rede entre este servidor e a plataforma.",
        check_url_and_paths: "O URL pode apontar para outro serviço: verifique as definições de URL e de caminhos.",
        check_credentials: "Verifique {{credentials}}. {{environment_note}}",
        check_scope: "Verifique REFPAY_SCOPE; alargar um âmbito cabe ao operador da plataforma (segundo o contrato).",
        check_credentials_and_interface:
          "Verifique {{credentials}} e REFPAY_TOKEN_INTERFACE (t1 ou t2, conforme atribuído na adesão).",
        ask_for_payments_scope:
          "Peça ao operador da plataforma que conceda o âmbito de pagamentos a estas credenciais, ou verifique REFPAY_SCOPE.",
        check_same_environment:
          "O serviço de tokens e o servidor de pagamentos podem pertencer a ambientes diferentes: verifique se o URL do token e REFPAY_PAYMENTS_URL são ambos de {{environment}}.",
        check_payments_url: "REFPAY_PAYMENTS_URL ou REFPAY_PAYMENT_INFO_PATH aponta provavelmente para o sítio errado.",
        retry_later: "A plataforma tem um problema neste momento; tente novamente dentro de alguns minutos.",
        step_token_issued: "Foi emitido um token.",
        step_status_read: "A consulta do estado respondeu 200 ({{status}}) para um pagamento inventado.",
        step_payment_unknown: "O token e o seu âmbito funcionam: o pagamento inventado é desconhecido, como esperado.",
        step_not_tried_no_token: "Não tentado: sem token.",
        step_credentials_refused: "As credenciais foram recusadas.",
        step_scope_not_granted: "O âmbito não abrange este pedido.",
        step_token_refused: "O token foi recusado.",
        step_request_refused: "O pedido foi recusado.",
        step_no_connection: "Sem ligação.",
        step_tls_failed: "A ligação segura falhou.",
        step_no_answer_in_time: "Sem resposta a tempo.",
        step_platform_failed: "A plataforma falhou.",
        step_not_platform_answer: "Não é a resposta da plataforma.",
        step_settings_incomplete: "Não tentado: as definições estão incompletas.",
      },
      services: { token: "O serviço de tokens", payments: "A API de pagamentos" },
      credentials: {
        t1: "REFPAY_CLIENT_ID e REFPAY_CLIENT_SECRET",
        t2: "REFPAY_CLIENT_ID, REFPAY_CLIENT_SECRET, REFPAY_CHANNEL e REFPAY_SCOPE",
      },
      environmentNotes: {
        production:
          "As credenciais da sandbox não funcionam em produção: use as credenciais de produção atribuídas na adesão.",
        sandbox:
          "As credenciais de produção não funcionam na sandbox: use as credenciais da sandbox atribuídas para a homologação.",
      },
      environmentNames: { sandbox: "sandbox", production: "produção" },
      platforms: { sandbox: "sandbox da REFPAY", production: "REFPAY em produção" },
      interfaces: { t1: "T1 (credenciais de cliente OAuth)", t2: "T2 (token de back-office)" },
    },
    payments: {
      columns: { order: "Encomenda", entityReference: "Entidade / referência", amount: "Montante" },
      cancelled: "Cancelada",
      noOrder: "Sem encomenda (carrinho não concluído)",
      account: "conta {{account}}",
    },
    attention: {
      heading: "Pagamentos que precisam de atenção",
      nothing: "Nada precisa de si neste momento.",
      total: { one: "{{count}} pagamento a verificar.", other: "{{count}} pagamentos a verificar." },
      kinds: {
        expiring: {
          label: "A expirar nas próximas 24 h",
          explain:
            "Referências em espera cuja validade termina dentro de um dia: um lembrete ainda pode salvar a venda.",
          column: "Expira",
        },
        paid_after_cancellation: {
          label: "Pagos após cancelamento",
          explain:
            "O cliente pagou depois de a encomenda ter sido cancelada: o dinheiro fica retido até o reembolsar (ou até retomar a venda com o cliente).",
          column: "Pago após cancelamento",
        },
        paid_after_session_deleted: {
          label: "Pagos, sem registo no Medusa",
          explain:
            "O cliente pagou uma referência cancelada depois de o Medusa ter apagado o respetivo pagamento (uma loja online criou outro): o Medusa não tem registo deste dinheiro, o plugin guardou a referência e encontrou-o. Reembolse-o aqui (ou retome a venda com o cliente).",
          column: "Encontrado pago",
        },
        refund_mismatch: {
          label: "Reembolsos divergentes",
          explain:
            "O total reembolsado no Medusa difere do da plataforma: foi feito um reembolso na plataforma sem registo no Medusa, ou registado no Medusa sem ter sido feito na plataforma. Verificar estado agora regista o primeiro e remove um reembolso interrompido por um servidor parado durante a chamada, passados 15 minutos (reembolse de novo); compare os dois e corrija o resto.",
          column: "Reembolsado",
        },
        amount_mismatch: {
          label: "Montante divergente",
          explain:
            "A plataforma indica um pagamento com um montante diferente do da encomenda. Nunca é capturado automaticamente: verifique-o na plataforma.",
          column: "Última verificação",
        },
        unknown_payment: {
          label: "Desconhecidos da REFPAY",
          explain:
            "A plataforma não conhece estas referências: verifique o ambiente e as credenciais REFPAY, ou o pagamento na plataforma. Nada foi cancelado.",
          column: "Última verificação",
        },
        platform_error: {
          label: "Última verificação falhou",
          explain:
            "A última verificação de estado não conseguiu contactar a plataforma. Serão verificados de novo automaticamente.",
          column: "Última verificação",
        },
      },
      listError: "Não foi possível carregar a lista: {{message}}",
      action: "Ação",
      empty: "Nada a assinalar.",
      detail: {
        failuresInARow: "{{when}} ({{count}} falhas seguidas)",
        platformStatus: "Estado na plataforma: {{status}}",
        platformStatusWithError: "Estado na plataforma: {{status}}: {{error}}",
        refundedAndHeld: "{{refunded}} reembolsados, {{held}} retidos",
        held: "{{held}} retidos",
        refundedOnBothSides: "Medusa {{medusa}}, REFPAY {{refpay}}",
        refundedOfCaptured: "Reembolsado de {{captured}} capturados (REFPAY segundo a última leitura)",
      },
      refund: {
        button: "Reembolsar {{amount}}",
        title: "Reembolsar {{amount}}?",
        description:
          "A encomenda #{{order}} foi cancelada antes de o cliente pagar a referência {{reference}}. {{amount}} é devolvido ao cliente através da REFPAY; esta operação não pode ser anulada.",
        confirm: "Reembolsar {{amount}}",
        cancel: "Cancelar",
        done: "Reembolsado",
        doneDescription: "{{amount}} está a ser devolvido ao cliente da encomenda #{{order}}.",
        failed: "O reembolso falhou",
      },
    },
    search: {
      heading: "Encontrar uma encomenda pela referência",
      intro:
        "A referência que o cliente indica, exatamente como lhe foi apresentada (os zeros à esquerda contam); a entidade é opcional.",
      entity: "Entidade",
      reference: "Referência",
      entityPlaceholder: "opcional",
      referencePlaceholder: "p. ex. 012 345 678",
      submit: "Pesquisar",
      none: "Nenhum pagamento REFPAY tem a referência {{query}}.",
      found: { one: "{{count}} pagamento com {{query}}:", other: "{{count}} pagamentos com {{query}}:" },
      columns: { issued: "Emitida", payment: "Pagamento" },
      states: {
        paidPartlyRefunded: "Pago, parcialmente reembolsado",
        paidRefunded: "Pago, reembolsado",
        paid: "Pago",
        awaiting: "A aguardar pagamento",
        cancelled: "Cancelado",
      },
    },
    webhooks: {
      heading: "Webhooks",
      warnings: {
        texts: {
          no_secret:
            "O REFPAY_WEBHOOK_SECRET não está definido: todas as entregas de webhooks são recusadas (401). Defina-o com o segredo que a plataforma envia e reinicie o Medusa.",
          refused_recently: {
            one: "{{count}} entrega de webhook foi recusada (401), a última em {{when}}, {{reason}}.",
            other: "{{count}} entregas de webhooks foram recusadas (401), a última em {{when}}, {{reason}}.",
          },
          malformed_recently: {
            one: "{{count}} entrega autêntica de webhook não era um evento REFPAY utilizável, a última em {{when}}, {{reason}}.",
            other:
              "{{count}} entregas autênticas de webhooks não eram eventos REFPAY utilizáveis, a última em {{when}}, {{reason}}.",
          },
          no_recent_delivery: {
            one: "Não chegou nenhuma entrega de webhook {{since}}, e há {{count}} pagamento em espera: os webhooks provavelmente não estão configurados na plataforma. Os pagamentos continuam a ser encontrados pela tarefa de verificação, mais tarde.",
            other:
              "Não chegou nenhuma entrega de webhook {{since}}, e há {{count}} pagamentos em espera: os webhooks provavelmente não estão configurados na plataforma. Os pagamentos continuam a ser encontrados pela tarefa de verificação, mais tarde.",
          },
          url_not_https:
            "O URL do webhook não é https: defina o admin.backendUrl do Medusa (MEDUSA_BACKEND_URL) com o endereço https público da loja.",
          url_not_public:
            "O URL do webhook indica esta máquina, que a plataforma não consegue alcançar: defina MEDUSA_BACKEND_URL com o endereço público da loja.",
        },
        refusalReasons: {
          wrong_secret: "com um segredo que não é o REFPAY_WEBHOOK_SECRET",
          missing_secret: "sem nenhum segredo (sem cabeçalho x-refpay-webhook-secret nem palavra-passe HTTP Basic)",
          no_secret_configured: "porque esta loja não tem REFPAY_WEBHOOK_SECRET",
        },
        acceptedSince:
          "Desde então foram aceites entregas: o segredo pode ter sido corrigido, ou outra pessoa está a chamar este URL.",
        giveSameSecret: "Dê à plataforma o mesmo segredo que o REFPAY_WEBHOOK_SECRET.",
        malformedReasons: {
          no_payment_id: "sem payment_id",
          no_event_type: "sem event_type",
          not_json: "com um corpo que não é JSON",
          not_an_object: "com um corpo que não é um objeto JSON",
        },
        malformedOtherReason: "({{reason}})",
        malformedIgnored:
          "Foram confirmadas (200) para que a plataforma não as reenvie para sempre, e ignoradas; a tarefa de verificação continua a verificar todos os pagamentos em espera. Se continuar, o formato dos eventos da plataforma pode ter mudado: contacte a REFPAY.",
        sinceEver: "até hoje",
        sinceLast: "há mais de 24 horas (a última em {{when}})",
      },
      intro:
        "A plataforma avisa a loja quando um cliente paga. Sem webhooks, a tarefa de verificação periódica encontra os pagamentos na mesma, mais tarde.",
      refresh: "Atualizar",
      loadError: "Não foi possível carregar o estado dos webhooks: {{message}}",
      url: {
        label: "URL a indicar à plataforma",
        fromBackendUrl: "Construído a partir do admin.backendUrl do Medusa (MEDUSA_BACKEND_URL).",
        fromRequest:
          "Construído a partir do endereço com que esta página foi aberta; se o endereço https público da loja for outro, defina-o em MEDUSA_BACKEND_URL (o admin.backendUrl do Medusa).",
        medusaRoute: "A rota do próprio Medusa, {{url}}, também funciona (processada 5 segundos depois).",
      },
      authentication: {
        label: "Autenticação",
        sentence:
          "Cada entrega tem de trazer o segredo de webhook da loja ({{variable}}, <badge>{{state}}</badge>), no cabeçalho <code>{{header}}</code> ou como palavra-passe da autenticação HTTP Basic (com qualquer nome de utilizador). As entregas sem ele são recusadas com 401.",
        set: "definido",
        missing: "em falta",
      },
      summary: {
        lastDelivery: "Última entrega:",
        lastDeliveryWhen: "{{when}} ({{relative}})",
        noneYet: "nenhuma até agora",
        waiting: "Pagamentos em espera:",
        refused: "Recusadas:",
        refusal: "{{count}} ({{reason}}, {{route}}, a última {{relative}})",
        malformed: "Inutilizáveis (autênticas, confirmadas, ignoradas):",
      },
      refusalReasons: {
        wrong_secret: "segredo errado",
        missing_secret: "sem segredo",
        no_secret_configured: "a loja não tem segredo",
      },
      malformedReasons: {
        no_payment_id: "sem payment_id",
        no_event_type: "sem event_type",
        not_json: "não é JSON",
        not_an_object: "não é um objeto JSON",
      },
      testEvent: {
        intro:
          "Sandbox: envie um evento de teste para ver uma entrega chegar aqui (um pagamento descartável de 1,00 € na sandbox).",
        send: "Enviar um evento de teste",
        waiting: "{{message}} A aguardar a entrega… {{summary}}",
        arrived: "A entrega de teste chegou ({{when}}): {{event}}, através de {{route}}. Os webhooks funcionam.",
        couldNotSend: "Não foi possível enviar o evento de teste.",
        noDelivery: "Não chegou nenhuma entrega em {{seconds}} s. {{summary}}",
        texts: {
          sent_to_this_shop:
            "Foi criado um pagamento de teste na sandbox; o seu evento PENDING_TRANSACTIONS está a caminho desta loja.",
          sent_elsewhere:
            "Foi criado um pagamento de teste, mas a sandbox entrega os webhooks em {{sandbox_webhook_url}}, não em {{shop_webhook_url}}.",
          not_sandbox: "Só é possível enviar eventos de teste no ambiente sandbox.",
          no_sandbox_controls:
            "A sandbox em {{origin}} não tem controlos de teste ({{controls_url}}): só o simulador REFPAY do plugin (npx refpay-sandbox) envia eventos de teste. Faça antes uma pequena encomenda.",
          no_webhook_url:
            "A sandbox não entrega webhooks: inicie-a com --webhook-url {{shop_webhook_url}} e o segredo de webhook da loja em REFPAY_SANDBOX_WEBHOOK_SECRET.",
          creation_failed: "Não foi possível criar o pagamento de teste.",
          controls_silent: "Os controlos da sandbox não responderam.",
          not_tried_yet: "A sandbox ainda não tentou entregar o evento.",
          delivered: "A sandbox entregou o evento (HTTP {{status}}).",
          refused_secret:
            "A loja recusou a entrega da sandbox (401): o segredo de webhook da sandbox não é o REFPAY_WEBHOOK_SECRET.",
          shop_answered: "A loja respondeu à entrega da sandbox com HTTP {{status}}; a sandbox volta a tentar.",
          not_delivered:
            "A sandbox não conseguiu entregar o evento ({{error}}): verifique o URL com que foi iniciada (--webhook-url).",
        },
      },
      deliveries: {
        heading: "Últimas entregas",
        note: "As entregas recusadas por causa do segredo, e as autênticas que não eram eventos utilizáveis, não aparecem nesta lista; estão contadas acima.",
        allOutcomes: "Todos os resultados",
        loadError: "Não foi possível carregar as entregas: {{message}}",
        columns: { received: "Recebida", event: "Evento", payment: "Pagamento", route: "Rota", outcome: "Resultado" },
        testPayment: "Pagamento de teste",
        noOrder: "Sem encomenda associada",
        emptyAll: "Ainda não foi registada nenhuma entrega.",
        emptyFiltered: "Nenhuma entrega com este resultado.",
        statuses: {
          processed: "Processada",
          duplicate: "Duplicada",
          unknown_payment: "Pagamento desconhecido",
          not_processed: "Não processada",
          test: "Evento de teste",
        },
      },
    },
    configuration: {
      heading: "Configuração",
      intro:
        "Tal como este servidor a resolveu no arranque: primeiro as opções do medusa-config, depois as variáveis REFPAY_*, depois os valores predefinidos. Para alterar uma definição, mude a respetiva variável e reinicie o Medusa.",
      account:
        'Esta é a conta de vendedor "{{account}}": cada definição é lida primeiro de REFPAY_{{prefix}}_* e depois de REFPAY_*.',
      groups: {
        platform: "Plataforma",
        credentials: "Credenciais",
        credentialsNote: "Os valores nunca são mostrados: apenas se cada um está definido.",
        timeouts: "Tempos limite e novas tentativas",
        expiry: "Validade",
        poll: "Verificações de estado (tarefa periódica)",
        latePayments: "Pagamentos após cancelamento",
      },
      credential: { set: "Definido", missing: "Em falta", missingRequired: "Em falta (obrigatório)" },
      rows: {
        environment: "Ambiente",
        tokenInterface: "Interface do token",
        authUrl: "Serviço de tokens (T1)",
        backofficeUrl: "Back-office (T2)",
        paymentsUrl: "Servidor de pagamentos",
        paymentInfoPath: "Caminho de consulta do estado",
        cancelPath: "Caminho de cancelamento e reembolso",
        t2AuthorizationForm: "Cabeçalho Authorization (T2)",
        sandboxHosts: "Servidores sandbox adicionais",
        clientId: "Client id",
        clientSecret: "Client secret",
        channel: "Canal (T2)",
        scope: "Âmbito (scope)",
        webhookSecret: "Segredo do webhook",
        connectTimeout: "Ligação",
        requestTimeout: "Cabeçalhos da resposta",
        bodyTimeout: "Silêncio no corpo da resposta",
        maxRetries: "Novas tentativas (erros de ligação, 5xx)",
        expiryDays: "Referência válida durante",
        expiryGrace: "Tolerância após expirar",
        expiryPolicy: "Quando uma referência expira sem pagamento",
        maxRenewals: "Renovações por encomenda",
        reminder: "Lembrete antes de expirar",
        cancelExpiredOrders: "Cancelar a encomenda quando expira",
        pollBatchSize: "Pagamentos verificados por execução, no mínimo",
        pollInterval: "Cada pagamento em espera verificado a cada",
        lateSettlement: "Pagamentos tardios verificados durante",
        autoRefund: "Reembolsar automaticamente",
      },
      values: {
        t1: "T1, credenciais de cliente OAuth",
        t2: "T2, token do back-office",
        bearer: "Bearer <token>",
        tokenAlone: "apenas o token",
        renew: "emitir uma nova referência (até {{times}})",
        cancel: "cancelá-la",
        noReminder: "nenhum",
        before: "{{hours}} antes",
        afterValidity: "{{days}} após o fim da validade",
        yes: "sim",
        no: "não",
        noAutoRefund: "não: ficam em Pagamentos que precisam de atenção",
      },
      units: {
        day: { one: "{{count}} dia", other: "{{count}} dias" },
        hour: { one: "{{count}} hora", other: "{{count}} horas" },
        minute: { one: "{{count}} minuto", other: "{{count}} minutos" },
        time: { one: "{{count}} vez", other: "{{count}} vezes" },
      },
    },
    order: {
      loadError: "Não foi possível carregar o pagamento REFPAY: {{message}}",
      statuses: {
        paid: "Pago",
        expired: "Expirado",
        awaiting: "A aguardar pagamento — não enviar",
        cancelled: "Cancelado",
        failed: "Falhado",
      },
      warnings: {
        paidButCancelled: "Pago, mas a encomenda está cancelada: não enviar.",
        expiredUnpaid: "A referência expirou sem ser paga: não enviar.",
        awaiting:
          "Não envie a encomenda enquanto a REFPAY não confirmar o pagamento. A encomenda passa a paga automaticamente quando o cliente pagar.",
        failed: "O pagamento falhou: não enviar.",
      },
      alerts: {
        paidAfterCancellation: "Pago depois de a encomenda ter sido cancelada: reembolse ou contacte o cliente.",
        paidAfterCancellationAt:
          "Pago depois de a encomenda ter sido cancelada: reembolse ou contacte o cliente. (pagamento registado em {{when}})",
        unknownToPlatform:
          "A plataforma não conhece esta referência (última verificação em {{when}}). Nada foi cancelado; verifique o ambiente e as credenciais REFPAY da loja, ou o pagamento na plataforma.",
        checkFailed: {
          one: "A última verificação de estado não conseguiu contactar a plataforma; será repetida automaticamente.",
          other:
            "As últimas {{count}} verificações de estado não conseguiram contactar a plataforma; serão repetidas automaticamente.",
        },
      },
      fields: {
        entity: "Entidade",
        reference: "Referência",
        amount: "Montante",
        platformStatus: "Estado na plataforma",
        expired: "Expirou",
        payBy: "Pagar até",
        lastChecked: "Última verificação",
      },
      history: "Referências desta encomenda",
      requests: {
        heading: "Pagamentos desta encomenda",
        outstanding: "Montante em dívida: {{amount}}",
        settled: "Nada em dívida.",
        loadError: "Não foi possível carregar os pagamentos da encomenda: {{message}}",
        states: {
          paid: "Pago",
          awaiting_refpay: "A aguardar pagamento — não enviar",
          requestable: "Por pagar, ainda sem referência",
          nothing_due: "Nada a pagar por REFPAY",
        },
      },
      actions: {
        issueNewReference: "Emitir nova referência",
        confirmNewReference: "Emitir uma nova referência REFPAY para esta encomenda e enviá-la por e-mail ao cliente?",
        requestPayment: "Pedir pagamento por REFPAY",
        confirmRequestPayment: "Emitir uma referência REFPAY de {{amount}} e enviá-la por e-mail ao cliente?",
        checkNow: "Verificar estado agora",
      },
      toasts: {
        checked: "Estado REFPAY verificado",
        checkedDescription: "{{status}} (plataforma: {{platform}})",
        checkFailed: "Não foi possível verificar o estado REFPAY",
        issued: "Nova referência REFPAY emitida",
        issuedDescription: "Entidade {{entity}}, referência {{reference}}",
        issueFailed: "Não foi possível emitir uma nova referência",
        requested: "Pedido de pagamento REFPAY enviado",
        alreadyRequested: "Já havia uma referência REFPAY a aguardar pagamento",
        requestedDescription: "Entidade {{entity}}, referência {{reference}}, {{amount}}",
        requestFailed: "Não foi possível pedir o pagamento",
      },
    },
  },
}
